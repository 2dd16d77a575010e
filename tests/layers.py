"""What the layer tests of both packages share: which of a package's modules a module imports,
and the imports that go up from a module's layer (a layer is a folder, or a module at the
package's root)."""
import ast
from pathlib import Path


def layer_of(layers, parts):
    """The index in `layers` (lowest first) of the module at `parts` under the package."""
    name = parts[0].removesuffix(".py")
    return next(level for level, names in enumerate(layers) if name in names)


def imported(package, path):
    """The modules of `package` (a folder; as paths of parts under it) that `path` imports."""
    parts = path.relative_to(package).parts
    here = list(parts[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == package.name:
                target = node.module.split(".")[1:]
            else:
                continue
            if target:
                yield target
            else:                                   # from . import a, b
                yield from ([alias.name] for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == package.name and "." in alias.name:
                    yield alias.name.split(".")[1:]


def upward_imports(package: Path, layers, modules):
    """'module imports target' for every import of `modules` that goes to a higher layer."""
    found = []
    for path in modules:
        own = layer_of(layers, path.relative_to(package).parts)
        for target in imported(package, path):
            if layer_of(layers, target) > own:
                found.append(f"{path.relative_to(package)} imports {'.'.join(target)}")
    return found
