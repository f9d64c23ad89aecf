; C++ definitions, calls, includes and base classes.
; Captures follow the tree-sitter tags convention (see the docstring of graphrag_code/extract.py).
; Out-of-line members `R Foo::bar(...) {}` use @owner (the innermost scope), so they are `Foo.bar`
; (prefixed by an enclosing namespace). Template wrappers, nested ones too, are part of the definition range.
; Declared variables and fields are @reference.binding (their types type receivers).
; A function-like macro (`#define SQUARE(x) helper(x)`) is a definition of kind macro: its invocations are calls
; of it, and the calls in its body (extract._reparsed_calls) are its own.
; Not captured: member/function prototypes without a body, `using` declarations, object-like macros.
; A conversion operator (`operator bool() const`) is named `operator bool`.

; ---- functions and inline methods (a function inside a class/struct becomes a method) -------------------
(function_definition
  declarator: [
    (function_declarator
      declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (reference_declarator
      (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)] @name))
  ]) @definition.function

(template_declaration
  (function_definition
    declarator: [
      (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)] @name)
      (pointer_declarator
        declarator: (function_declarator
          declarator: [(identifier) (field_identifier) (operator_name)] @name))
      (reference_declarator
        (function_declarator
          declarator: [(identifier) (field_identifier) (operator_name)] @name))
    ])) @definition.function

; `T *&f()` / `const char *const &f()`: a pointer to a reference-returning declarator
(function_definition
  declarator: (pointer_declarator
    declarator: (reference_declarator
      (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)] @name)))) @definition.function

; conversion operators, `operator bool() const` (named `operator bool`)
(function_definition
  declarator: (operator_cast) @name) @definition.function

(template_declaration
  (function_definition
    declarator: (operator_cast) @name)) @definition.function

; ---- out-of-line members: `void Foo::bar()`, `Foo *Foo::make()`, `ns::Foo::bar()`, `Box<T>::put()` -------
(function_definition
  declarator: [
    (pointer_declarator
      declarator: (reference_declarator
        (function_declarator
          declarator: (qualified_identifier
            scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
            name: [(identifier) (operator_name)] @name))))
    (qualified_identifier
      scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
      name: (operator_cast) @name)
  ]) @definition.method

(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
          name: [(identifier) (operator_name)] @name)))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
          name: [(identifier) (operator_name)] @name)))
    (function_declarator
      declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
  ]) @definition.method

(template_declaration
  (function_definition
    declarator: [
      (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
          name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator
        declarator: (function_declarator
          declarator: (qualified_identifier
            scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
            name: [(identifier) (operator_name)] @name)))
      (reference_declarator
        (function_declarator
          declarator: (qualified_identifier
            scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]
            name: [(identifier) (operator_name)] @name)))
    ])) @definition.method

; deeper qualified names, `void ns::Outer::Inner::run()`, `char *A::B::f()`, `int &ns::C::f()`: @name is the whole
; qualified_identifier; extract.py names the method by its last part, owned by the whole scope (`ns.Outer.Inner`)
(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier))) @name)
    (pointer_declarator
      declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier)) @name))
    (reference_declarator
      (function_declarator declarator: (qualified_identifier name: (qualified_identifier)) @name))
  ]) @definition.method

; ---- pure virtual methods: `virtual R f(...) = 0;` (declared to be overridden; where a call lands first) ------
(field_declaration
  declarator: (function_declarator declarator: (field_identifier) @name)
  default_value: (number_literal)) @definition.method

; ---- lambdas bound to a name: `auto f = [](int x) { ... };` ----------------------------------------------
(declaration
  declarator: (init_declarator
    declarator: (identifier) @name
    value: (lambda_expression))) @definition.function

; ---- types --------------------------------------------------------------------------------------------------
(class_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.class

(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list)) @definition.enum

(template_declaration
  (class_specifier
    name: (type_identifier) @name
    body: (field_declaration_list))) @definition.class

(template_declaration
  (struct_specifier
    name: (type_identifier) @name
    body: (field_declaration_list))) @definition.struct

; a (partial) specialization, `template <> struct process_attribute<name> { ... }`: named by its template
(template_declaration
  (class_specifier
    name: (template_type name: (type_identifier) @name)
    body: (field_declaration_list))) @definition.class

(template_declaration
  (struct_specifier
    name: (template_type name: (type_identifier) @name)
    body: (field_declaration_list))) @definition.struct

; `typedef struct { ... } Name;`
(type_definition
  type: (struct_specifier !name body: (field_declaration_list))
  declarator: (type_identifier) @name) @definition.struct

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name
  body: (declaration_list)) @definition.module

; ---- base classes: `class Square : public Shape, private util::Tracked, Base<T>` --------------------------
(base_class_clause (type_identifier) @name @reference.inherits)
(base_class_clause (qualified_identifier name: (type_identifier) @name) @reference.inherits)
(base_class_clause (template_type name: (type_identifier) @name) @reference.inherits)
(base_class_clause
  (qualified_identifier name: (template_type name: (type_identifier) @name)) @reference.inherits)

; ---- calls --------------------------------------------------------------------------------------------------
(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (template_function name: (identifier) @name)
  (#not-match? @name "^(static|dynamic|const|reinterpret)_cast$")) @reference.call

; obj.method(), ptr->method(), this->method()
(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: [
      (field_identifier) @name
      (template_method name: (field_identifier) @name)
      (dependent_name (template_method name: (field_identifier) @name))
    ])) @reference.call

; Foo::create(), std::make_unique<T>(), ns::Foo::create() (receiver: the innermost scope)
(call_expression
  function: (qualified_identifier
    scope: (_) @receiver
    name: [(identifier) @name (template_function name: (identifier) @name)])) @reference.call

(call_expression
  function: (qualified_identifier
    name: (qualified_identifier
      scope: (_) @receiver
      name: [(identifier) @name (template_function name: (identifier) @name)]))) @reference.call

; new Foo(...), new ns::Foo(...), new Box<T>(...): a call to the constructor Foo
(new_expression
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)])
  ]) @reference.call

; ---- includes -----------------------------------------------------------------------------------------------
(preproc_include
  path: (_) @import.module) @reference.import

; `using namespace geo;`: the namespace's members are bare names in the file (not `using std::string;`)
(using_declaration
  "namespace"
  [(identifier) (qualified_identifier) (namespace_identifier)] @import.module @import.wildcard) @reference.import

; ---- declared variables (@reference.binding): their types type receivers (`Node* n = ...; n->Go()`, a field's
; `parent_->LookupRule()`); `auto` by its initializer. Fields are the class's attribute types.
(declaration declarator: [
  (identifier) @name
  (pointer_declarator declarator: (identifier) @name)
  (reference_declarator (identifier) @name)
  (init_declarator declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (reference_declarator (identifier) @name)])]) @reference.binding
(field_declaration declarator: [
  (field_identifier) @name
  (pointer_declarator declarator: (field_identifier) @name)
  (reference_declarator (field_identifier) @name)]) @reference.binding
(for_range_loop declarator: [
  (identifier) @name
  (pointer_declarator declarator: (identifier) @name)
  (reference_declarator (identifier) @name)]) @reference.binding

; ---- function-like macros: `#define SQUARE(x) helper(x) * (x)` ----------------------------------------------
(preproc_function_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  value: (preproc_arg) @args) @reference.macro_body
