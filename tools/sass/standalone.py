"""Import python/aster/sass as a package of its own, for tools that run where the compiled
aster package is not built (the corpus machine).  Needs: the source tree.
Guarantees: `standalone.sass` is the package, with its submodules loaded."""
import importlib
import importlib.util
import os
import sys

_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'python', 'aster', 'sass')
_spec = importlib.util.spec_from_file_location('aster_sass', os.path.join(_DIR, '__init__.py'),
                                               submodule_search_locations=[_DIR])
sass = importlib.util.module_from_spec(_spec)
sys.modules['aster_sass'] = sass
_spec.loader.exec_module(sass)
for _m in ('control', 'nvdisasm_text', 'syntax', 'table', 'cubin', 'barriers', 'builder', 'nvinfo'):
    setattr(sass, _m, importlib.import_module('aster_sass.' + _m))
