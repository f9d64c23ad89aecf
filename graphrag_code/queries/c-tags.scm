; C definitions, calls and includes.
; Captures follow the tree-sitter tags convention (see the docstring of graphrag_code/extract.py).
; `static` functions are marked internal by the engine (storage_class_specifier child).
; A function-like macro (`#define SQUARE(x) helper(x)`) is a definition of kind macro: its invocations are calls
; of it, and the calls in its body (extract._reparsed_calls) are its own.
; Not captured: prototypes (declarations without a body), object-like macros (`#define MAX 10`), typedef aliases
; of plain types.

; functions, including pointer-returning ones: `char *f(...)`, `char **f(...)`
(function_definition
  declarator: (function_declarator
    declarator: (identifier) @name)) @definition.function

(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (identifier) @name))) @definition.function

(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name)))) @definition.function

; a function returning a function pointer: `int (*pick(int which))(int, int) {`
(function_definition
  declarator: (function_declarator
    declarator: (parenthesized_declarator
      (pointer_declarator
        declarator: (function_declarator
          declarator: (identifier) @name))))) @definition.function

; a function named by a macro: `static void FN(Initialize)(H* self) {` (brotli's `*_inc.h`, included once per
; hasher with another `FN`): named by the macro's argument and qualified by the macro, `FN.Initialize`
(function_definition
  declarator: (function_declarator
    declarator: (function_declarator
      declarator: (identifier) @owner
      parameters: (parameter_list . (parameter_declaration type: (type_identifier) @name .) .)))) @definition.function

; named struct / union / enum with a body
(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list)) @definition.enum

; `typedef struct { ... } Name;` (anonymous tag: the typedef names it)
; `typedef struct tag { ... } alias;` is the struct `tag`, ranged over the whole typedef
(type_definition
  type: (struct_specifier name: (type_identifier) @name body: (field_declaration_list))) @definition.struct

(type_definition
  type: (union_specifier name: (type_identifier) @name body: (field_declaration_list))) @definition.struct

(type_definition
  type: (enum_specifier name: (type_identifier) @name body: (enumerator_list))) @definition.enum

(type_definition
  type: (struct_specifier !name body: (field_declaration_list))
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (union_specifier !name body: (field_declaration_list))
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier !name body: (enumerator_list))
  declarator: (type_identifier) @name) @definition.enum

; calls: `f()`, and through function pointers `s->fn()` / `s.fn()`
(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: (field_identifier) @name)) @reference.call

; a call of a function named by a macro: `FN(Prepare)(self, ...)` calls `FN.Prepare` (see above; `FN_A(Prepare)`
; another macro's)
(call_expression
  function: (call_expression
    function: (identifier) @receiver
    arguments: (argument_list . (identifier) @name .))) @reference.call

; `#include <stdio.h>` / `#include "queue.h"`
(preproc_include
  path: (_) @import.module) @reference.import

; ---- function-like macros: `#define SQUARE(x) helper(x) * (x)` ----------------------------------------------
(preproc_function_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  value: (preproc_arg) @args) @reference.macro_body
