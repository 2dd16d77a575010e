"""Declares the Cython extensions and how to compile them on each compiler.

The metadata is in pyproject.toml; this file only adds the compiled modules. The flags depend
on the compiler the build actually uses (``build_ext.compiler.compiler_type``), not on the
platform alone:

- GCC and Clang (``unix``, ``mingw32``): ``-O3 -fno-strict-aliasing``; OpenMP with
  ``-fopenmp`` where a test program compiles and links with it (GCC; LLVM Clang with libomp).
  Apple Clang has no ``-fopenmp``: with Homebrew's libomp installed it takes
  ``-Xpreprocessor -fopenmp`` and ``-lomp``, else the build is serial.
- MSVC (``msvc``): ``/O2``; OpenMP 2.0 with ``/openmp`` (the runtime, vcomp140.dll, comes
  with the Visual C++ redistributable; the Windows wheels bundle it). MSVC does no type-based
  alias analysis, so it needs nothing for strict aliasing.

Environment variables read at build time:
  QUIXO_MARCH_NATIVE=1   GCC/Clang: compile for this processor only (-march=native); off by
                         default, as a wheel must run on any processor of its platform
  QUIXO_NO_OPENMP=1      build without OpenMP even where the compiler has it: every kernel
                         then runs on one core (the macOS wheels are built so)

The extensions compile in parallel, one per core (``build_ext --parallel``); on Linux Cython
translates them in parallel too.
"""
import contextlib
import os
import sys
import tempfile
from dataclasses import dataclass, field

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

OPENMP_PROBE = r"""
#include <omp.h>
int main(void) {
    int threads = 0;
    #pragma omp parallel
    {
        #pragma omp atomic
        threads += 1;
    }
    return threads > 0 && omp_get_max_threads() > 0 ? 0 : 1;
}
"""

# Where Homebrew puts libomp (Apple Silicon, Intel): Apple Clang finds it only when told.
MACOS_LIBOMP_PREFIXES = ("/opt/homebrew/opt/libomp", "/usr/local/opt/libomp")


@dataclass
class Flags:
    """What one compiler gets: the chosen flags, and a line for the build log."""
    compile: list[str]
    link: list[str] = field(default_factory=list)
    include_dirs: list[str] = field(default_factory=list)
    library_dirs: list[str] = field(default_factory=list)
    openmp: str = "no"


@contextlib.contextmanager
def silenced():
    """Send what the compiler prints while probing to /dev/null (a failed probe is expected
    where OpenMP is missing, and its errors would read as a failed build)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def links_openmp(compiler, compile_args, link_args, include_dirs=(), library_dirs=()) -> bool:
    """Compile and link a small OpenMP program with these flags, with the build's own
    compiler object (so CC, CFLAGS and MSVC's environment apply as they will to the
    extensions); any failure means no OpenMP."""
    with tempfile.TemporaryDirectory() as folder, silenced():
        source = os.path.join(folder, "openmp_probe.c")
        with open(source, "w") as handle:
            handle.write(OPENMP_PROBE)
        try:
            objects = compiler.compile([source], output_dir=folder,
                                       include_dirs=list(include_dirs),
                                       extra_postargs=list(compile_args))
            compiler.link_executable(objects, "openmp_probe", output_dir=folder,
                                     library_dirs=list(library_dirs),
                                     extra_postargs=list(link_args))
        except Exception:   # CompileError, LinkError, a missing compiler: all mean "no"
            return False
    return True


def openmp_candidates(compiler_type: str):
    """The ways to ask this kind of compiler for OpenMP, best first:
    (compile args, link args, include dirs, library dirs, name)."""
    if compiler_type == "msvc":
        yield ["/openmp"], [], [], [], "/openmp"
        return
    yield ["-fopenmp"], ["-fopenmp"], [], [], "-fopenmp"
    if sys.platform == "darwin":                      # Apple Clang with a separate libomp
        for prefix in MACOS_LIBOMP_PREFIXES:
            include, lib = os.path.join(prefix, "include"), os.path.join(prefix, "lib")
            if os.path.exists(os.path.join(include, "omp.h")):
                yield (["-Xpreprocessor", "-fopenmp"], ["-lomp"], [include], [lib],
                       f"-Xpreprocessor -fopenmp -lomp ({prefix})")


def flags_for(compiler) -> Flags:
    """The flags for the compiler this build runs (see the module docstring)."""
    kind = compiler.compiler_type
    native = os.environ.get("QUIXO_MARCH_NATIVE") == "1"
    if kind == "msvc":
        flags = Flags(compile=["/O2"])
        if native:
            print("quixo-solver: QUIXO_MARCH_NATIVE=1 has no MSVC equivalent: ignored")
    else:                                            # unix (GCC, Clang), mingw32, cygwin
        flags = Flags(compile=["-O3", "-fno-strict-aliasing"] + ["-march=native"] * native)
    if os.environ.get("QUIXO_NO_OPENMP") == "1":
        flags.openmp = "off (QUIXO_NO_OPENMP=1): every kernel runs on one core"
        return flags
    for compile_args, link_args, include_dirs, library_dirs, name in openmp_candidates(kind):
        if links_openmp(compiler, compile_args, link_args, include_dirs, library_dirs):
            flags.compile += compile_args
            flags.link += link_args
            flags.include_dirs += include_dirs
            flags.library_dirs += library_dirs
            flags.openmp = name
            break
    else:
        flags.openmp = "not found: every kernel runs on one core"
    return flags


def translate_in_parallel() -> int:
    """Processes for Cython's translation: one per core where worker processes fork (Linux);
    elsewhere a spawned worker would re-run the build backend, so one."""
    import multiprocessing

    return (os.cpu_count() or 1) if multiprocessing.get_start_method() == "fork" else 0


class BuildExtensions(build_ext):
    """build_ext that picks the flags for its compiler and compiles the extensions in
    parallel by default."""

    def finalize_options(self):
        # Cython runs here, not when setup.py is read: an sdist (or a metadata query) then
        # needs no translation and ships the .pyx sources, never stale .c files.
        self.distribution.ext_modules = cythonize(
            self.distribution.ext_modules,
            language_level=3,
            nthreads=translate_in_parallel(),
            compiler_directives={
                "boundscheck": False,
                "wraparound": False,
                "cdivision": True,
                "initializedcheck": False,
            },
        )
        super().finalize_options()
        if self.parallel is None:       # `--parallel N` / `-j N` on the command line wins
            self.parallel = os.cpu_count() or 1

    def build_extensions(self):
        flags = flags_for(self.compiler)
        print(f"quixo-solver: compiler {self.compiler.compiler_type}; compile with "
              f"{' '.join(flags.compile)}; link with {' '.join(flags.link) or 'no extra flags'}; "
              f"OpenMP {flags.openmp}; {self.parallel} parallel jobs")
        for ext in self.extensions:
            ext.extra_compile_args = flags.compile + ext.extra_compile_args
            ext.extra_link_args = flags.link + ext.extra_link_args
            ext.include_dirs += flags.include_dirs
            ext.library_dirs += flags.library_dirs
        super().build_extensions()


def extension(name: str) -> Extension:
    return Extension(
        name,
        [os.path.join("src", *name.split(".")) + ".pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )


EXTENSIONS = [
    extension("quixo_solver._interrupt"),
    extension("quixo_solver.rules._rules"),
    extension("quixo_solver.tablebase.format._blockcheck"),
    extension("quixo_solver.tablebase.format._index"),
    extension("quixo_solver.tablebase.format._orbit_index"),
    extension("quixo_solver.tablebase.format._codec"),
    extension("quixo_solver.tablebase.format._compressed_table"),
    extension("quixo_solver.tablebase.generator._retro"),
    extension("quixo_solver.tablebase._verify"),
    extension("quixo_solver.search._search_state"),
    extension("quixo_solver.search._search"),
    extension("quixo_solver.teams._team_rules"),
    extension("quixo_solver.teams._solve"),
    extension("quixo_solver.teams._team_search"),
    extension("quixo_solver.teams.tables._tier_index"),
    extension("quixo_solver.teams.tables._tier_retro"),
    extension("quixo_solver.teams.tables._verify"),
    extension("qwixx_stats.rules._rows"),
    extension("qwixx_stats.tables._solitaire"),
    extension("qwixx_stats.strategies._simulate"),
]

setup(cmdclass={"build_ext": BuildExtensions}, ext_modules=EXTENSIONS)
