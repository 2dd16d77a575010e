"""What the layer tests of both packages share: which of a package's modules a module imports,
the imports that go up from a module's layer (a layer is a folder, or a module at the
package's root), and the circles of imports among its modules (inside a layer too)."""
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
            # `from X import a`: a is a module of X or a name in it (module_file tells)
            yield from (target + [alias.name] for alias in node.names)
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


def module_file(package: Path, parts):
    """The file of the module that `parts` (an imported name under `package`) lies in: the
    longest prefix of `parts` that is a module (Python or Cython) or a folder (its __init__.py)."""
    parts = list(parts)
    while parts:
        place = package.joinpath(*parts)
        for suffix in (".py", ".pyx"):
            if place.with_suffix(suffix).is_file():
                return place.with_suffix(suffix)
        if (place / "__init__.py").is_file():
            return place / "__init__.py"
        parts.pop()
    return package / "__init__.py"


def import_circles(package: Path, modules):
    """Every circle of imports among `modules` (imports inside functions count: they tie the
    two modules as much), each as the list of its modules' paths under `package`."""
    arrows = {path: {module_file(package, target) for target in imported(package, path)} - {path}
              for path in modules}
    circles, on_path, done = [], [], set()

    def walk(path):
        on_path.append(path)
        for target in sorted(arrows[path]):
            if target in on_path:
                circle = on_path[on_path.index(target):]
                circles.append([str(module.relative_to(package)) for module in circle])
            elif target not in done and target in arrows:
                walk(target)
        on_path.pop()
        done.add(path)

    for path in sorted(arrows):
        if path not in done:
            walk(path)
    return circles
