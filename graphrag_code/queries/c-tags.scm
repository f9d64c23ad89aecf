; C definitions, calls and includes.
; Captures follow the tree-sitter tags convention (see the docstring of graphrag_code/extract.py).
; `static` functions are marked internal by the engine (storage_class_specifier child).
; Not captured: prototypes (declarations without a body), macros, typedef aliases of plain types.

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

; `#include <stdio.h>` / `#include "queue.h"`
(preproc_include
  path: (_) @import.module) @reference.import
