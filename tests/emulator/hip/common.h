// Minimal HIP-like definitions for device-only compilation without HIP
// headers (clang -x hip -nogpuinc -nogpulib).
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define KERNEL extern "C" __global__ void

typedef unsigned int uint;
typedef unsigned long long u64;

__device__ inline uint tid_x() { return __builtin_amdgcn_workitem_id_x(); }
__device__ inline uint tid_y() { return __builtin_amdgcn_workitem_id_y(); }
__device__ inline uint tid_z() { return __builtin_amdgcn_workitem_id_z(); }
__device__ inline uint bid_x() { return __builtin_amdgcn_workgroup_id_x(); }
__device__ inline uint bid_y() { return __builtin_amdgcn_workgroup_id_y(); }
__device__ inline uint bid_z() { return __builtin_amdgcn_workgroup_id_z(); }
__device__ inline void sync() { __builtin_amdgcn_s_barrier(); }
// A barrier with the memory fences __syncthreads() implies.
__device__ inline void syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
