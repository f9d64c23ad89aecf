; Python definitions, calls, imports and base classes.
; Captures follow the tree-sitter tags convention (see graphrag_code/extract.py, module docstring).

(decorated_definition
  definition: (function_definition name: (identifier) @name)) @definition.function

(function_definition
  name: (identifier) @name) @definition.function

(decorated_definition
  definition: (class_definition name: (identifier) @name)) @definition.class

(class_definition
  name: (identifier) @name) @definition.class

; module-level `name = lambda ...`
(module
  (assignment left: (identifier) @name right: (lambda)) @definition.function)

(class_definition
  superclasses: (argument_list (identifier) @name @reference.inherits))
; `class Serializer(base.Serializer)`: the whole chain, so that resolution can follow the module (its last name
; alone may be the class being declared)
(class_definition
  superclasses: (argument_list (attribute) @name @reference.inherits))
; a generic base: `class Stack(Base[T])`, `class Client(t.Protocol[T])`
(class_definition
  superclasses: (argument_list (subscript value: (identifier) @name) @reference.inherits))
(class_definition
  superclasses: (argument_list (subscript value: (attribute) @name) @reference.inherits))

(call
  function: (identifier) @name) @reference.call

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @name)) @reference.call

; a function handed to a call (`sorted(params, key=sort_key)`, `re.sub(p, self._sub, s)`, `stream(s, _is_reader)`):
; a library may call it, a function of the repository calls it through its parameter (extract.py: add_callback
; keeps the names of this file's functions and of imports; resolve.py: _settle_callbacks)
(call
  arguments: (argument_list
    [(identifier) @name
     (attribute object: (identifier) @receiver attribute: (identifier) @name)])) @reference.callback

(call
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @slot
      value: [(identifier) @name
              (attribute object: (identifier) @receiver attribute: (identifier) @name)]))) @reference.callback

; `self.total`, `ctx.total`: an implicit call when `total` is a property of the same file (extract.py decides;
; without a language server only reads through self/cls make edges)
(attribute
  object: (_) @receiver
  attribute: (identifier) @name) @reference.read

; what may tell a receiver's class (resolve.receiver_class): a local variable or a class-body name assigned or
; annotated, `self.x = ...` in a method, a `for` loop's or a comprehension's target (extract.py: add_binding)
(assignment
  left: (identifier) @name) @reference.binding

(assignment
  left: (attribute
    object: (identifier) @receiver
    attribute: (identifier) @name)) @reference.binding

(for_statement
  left: (identifier) @name) @reference.binding

(for_in_clause
  left: (identifier) @name) @reference.binding

; `for i, arg in enumerate(args)`, `for name, option in options.items()`, `for a, b in zip(xs, ys)`: each name
(for_statement
  left: (pattern_list (identifier) @name)) @reference.binding

(for_in_clause
  left: (pattern_list (identifier) @name)) @reference.binding

; `except ClickException as e:` (`except (A, B) as e:`): e is one of them
(except_clause
  value: (as_pattern
    alias: (as_pattern_target (identifier) @name))) @reference.binding

; what a function returns: `return decorator` where decorator is a function defined in the one returning (calling
; what it returns calls that function), or for an unannotated function what it returns (`return registry`,
; `registry = util.Registry()`) (extract.py: add_returned)
(return_statement
  (_) @_value) @reference.returns

; `command(name, cls)(f)`: a call of what a call returns (its __call__, or the function it returns)
(call
  function: (call) @receiver) @reference.dunder

; a collection written out with names in it (`binary_streams = {"stdin": get_binary_stdin, ...}`,
; `self.handlers = [on_open, on_close]`): its items are those functions or objects (extract.py: add_registry)
(assignment
  left: [(identifier) (attribute)] @name
  right: [(dictionary) (list) (tuple) (set)] @_items) @reference.registry

; `with ctx:` / `with self.lock as held:` / `with self.make_context(args) as ctx:`: the object's __enter__ and
; __exit__ run (for a call, on what it returns: the resolver reads the callee's return annotation)
(with_item
  value: [(identifier) (attribute) (call)] @receiver) @reference.with

(with_item
  value: (as_pattern . [(identifier) (attribute) (call)] @receiver)) @reference.with

; the object's dunder method that Python calls for a statement or an operator (extract.py: add_dunder):
; `for x in obj` __iter__, `k in obj` __contains__, `obj[k]` __getitem__ (__setitem__ when assigned,
; __delitem__ when deleted)
(for_statement
  right: [(identifier) (attribute)] @receiver) @reference.dunder

(for_in_clause
  right: [(identifier) (attribute)] @receiver) @reference.dunder

(comparison_operator
  ["in" "not in"] . [(identifier) (attribute)] @receiver) @reference.dunder

; and the built-in functions that call one on their first argument: `len(obj)` __len__, `iter(obj)` __iter__,
; `list(obj)` __iter__ and __len__ (a length hint), `next(it)` __next__, `repr(obj)` __repr__, ...
; (extract.py: _BUILTIN_DUNDERS)
(call
  function: (identifier) @name
  arguments: (argument_list . [(identifier) (attribute)] @receiver)
  (#any-of? @name "len" "iter" "next" "list" "tuple" "sorted" "set" "frozenset" "repr" "str")) @reference.dunder

(subscript
  value: [(identifier) (attribute)] @receiver) @reference.dunder

(import_statement
  name: (dotted_name) @import.module) @reference.import

(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias)) @reference.import

(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.name) @reference.import

(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @reference.import

(import_from_statement
  module_name: (_) @import.module
  (wildcard_import) @import.wildcard) @reference.import

; a definition decorated by a name (`@optimizeconst`, `@click.pass_context`): the decorator is called with it when
; the definition runs, and the wrapper it returns may call it (extract.py: add_decorator; the last decorator only,
; the one handed the function itself; not a decorator factory's call, `@app.route("/")`)
(decorated_definition
  (decorator [(identifier) @name
              (attribute object: (_) @receiver attribute: (identifier) @name)]) @_last .
  definition: (_)) @reference.decorator

