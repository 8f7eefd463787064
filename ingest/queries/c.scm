; C (also inherited by C++: `; inherits: c` in cpp.scm).
;
; Conventions:
; - Doc comments: every comment touching a definition (Doxygen `/** */` and
;   `///`, and the plain `/* */` and `//` blocks most C code documents its
;   functions with); a blank line breaks the run. The comments before the
;   first declaration (licence, file description) are the header.
; - Declarations are matched at any depth: inside `#if`/`#ifdef` blocks
;   (an include guard wraps a whole header) and `extern "C" { … }`.
; - Functions: definitions, and prototypes (`int f(void);`, the API of a
;   header, where its documentation is). A function-like macro
;   (`#define MAX(a, b) …`) is a function, an object-like one
;   (`#define SIZE 16`) a constant.
; - Types: `struct` and `union` -> structs, `enum` -> enums, `typedef` ->
;   a type; an anonymous struct, union or enum named by its typedef
;   (`typedef struct { … } point;`) is that struct or enum under the
;   typedef's name. Fields are owned by their struct, enumerators are
;   constants of their enum.
; - Values: file-level variables (each declarator of `int a, b;`), `const`
;   ones constants; a function's locals are never elements (the engine
;   drops values inside functions).
; - Upper-case macro names the grammar stumbles on (`REDISMODULE_API int
;   (*f)(…) REDISMODULE_ATTR;`: a name in an error, the type of a
;   declaration in error, a name after a declaration's parameters in error)
;   are blanked and the file read again (`@mask`; the engine keeps that
;   reading when it finds more definitions, adding back any it lost).

((ERROR [(type_identifier) (identifier)] @mask)
  (#match? @mask "^[A-Z][A-Z0-9]*_[A-Z0-9_]+$"))
((declaration type: (type_identifier) @mask . (ERROR))
  (#match? @mask "^[A-Z][A-Z0-9]*_[A-Z0-9_]+$"))
((ERROR (function_declarator parameters: (parameter_list) . (identifier) @mask))
  (#match? @mask "^[A-Z][A-Z0-9]*_[A-Z0-9_]+$"))

; Header: the comments at the top of the file.
(translation_unit (comment) @header)
(comment) @doc

; Imports: `#include <stdio.h>` -> `stdio.h`, `#include "a/b.h"` -> `a/b.h`.
(preproc_include path: [(string_literal) (system_lib_string)] @import)

; Macros.
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function

; Function definitions: `f(…)`, `*f(…)`, `**f(…)`, `(f)(…)`.
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (function_declarator declarator: (parenthesized_declarator (identifier) @name))
  ]
  body: (_) @body) @definition.function

; Prototypes: a declaration whose declarator is a function's.
(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

; File-level variables: a declaration is named by its first declarator and
; cut at its value; further declarators (`int a = 1, b;`) are elements of
; their own, each its declarator. Those declared `const` first
; (`static const int N = 4;`, also a pointer to const) are constants.
; (No anchor between the type and the first declarator: a comment or a
; misread macro may stand between them; each further match of the same
; declaration is folded into it, named by the first.) A declaration that
; also declares a function (`int x, f(void);`, or a misread C++ one, a
; name followed by `(` before any `=`) is that prototype only.
((declaration
   declarator: [
     (identifier) @name
     (array_declarator declarator: (identifier) @name)
     (array_declarator declarator: (array_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (identifier) @name)
     (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
     (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
     (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
     (init_declarator
       declarator: [
         (identifier) @name
         (array_declarator declarator: (identifier) @name)
         (array_declarator declarator: (array_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (identifier) @name)
         (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
         (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
         (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
       ]
       value: (_) @body)
   ]) @definition.variable
  (#not-match? @definition.variable "^((static|extern|inline|register|thread_local|_Thread_local)\\s+)*(const|constexpr|constinit)\\s")
  (#not-match? @definition.variable "^[^=]*[A-Za-z0-9_]\\("))
((declaration
   declarator: (_)
   declarator: [
     (identifier) @name
     (array_declarator declarator: (identifier) @name)
     (array_declarator declarator: (array_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (identifier) @name)
     (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
     (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
     (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
     (init_declarator
       declarator: [
         (identifier) @name
         (array_declarator declarator: (identifier) @name)
         (array_declarator declarator: (array_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (identifier) @name)
         (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
         (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
         (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
       ]
       value: (_) @body)
   ] @definition.variable) @_decl
  (#not-match? @_decl "^((static|extern|inline|register|thread_local|_Thread_local)\\s+)*(const|constexpr|constinit)\\s"))
((declaration
   declarator: [
     (identifier) @name
     (array_declarator declarator: (identifier) @name)
     (array_declarator declarator: (array_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (identifier) @name)
     (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
     (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
     (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
     (init_declarator
       declarator: [
         (identifier) @name
         (array_declarator declarator: (identifier) @name)
         (array_declarator declarator: (array_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (identifier) @name)
         (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
         (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
         (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
       ]
       value: (_) @body)
   ]) @definition.constant
  (#match? @definition.constant "^((static|extern|inline|register|thread_local|_Thread_local)\\s+)*(const|constexpr|constinit)\\s")
  (#not-match? @definition.constant "^[^=]*[A-Za-z0-9_]\\("))
((declaration
   declarator: (_)
   declarator: [
     (identifier) @name
     (array_declarator declarator: (identifier) @name)
     (array_declarator declarator: (array_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (identifier) @name)
     (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
     (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
     (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
     (init_declarator
       declarator: [
         (identifier) @name
         (array_declarator declarator: (identifier) @name)
         (array_declarator declarator: (array_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (identifier) @name)
         (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
         (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
         (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
         (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
       ]
       value: (_) @body)
   ] @definition.constant) @_decl
  (#match? @_decl "^((static|extern|inline|register|thread_local|_Thread_local)\\s+)*(const|constexpr|constinit)\\s"))

; Structs and unions, named, with a body.
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum

; Typedefs: a type (the whole `typedef`), or the anonymous struct, union or
; enum they name (`typedef struct { … } point;`: a struct `point`). A
; typedef naming a struct, union or enum defined in it with a tag
; (`typedef struct node { … } node_t;`) is the type `node_t`, its
; declarator alone, so that the struct `node` is no member of it.
((type_definition
   type: (_) @_type
   declarator: [
     (type_identifier) @name
     (pointer_declarator declarator: (type_identifier) @name)
     (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
     (array_declarator declarator: (type_identifier) @name)
     (function_declarator declarator: (type_identifier) @name)
     (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
     (function_declarator declarator: (parenthesized_declarator (type_identifier) @name))
     (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
   ]) @definition.type
  (#not-match? @_type "^(struct|union|enum)[^{;]*\\{"))
((type_definition
   type: (_) @_type
   declarator: [
     (type_identifier) @name
     (pointer_declarator declarator: (type_identifier) @name)
   ] @definition.type)
  (#match? @_type "^(struct|union|enum)[^{;]*[A-Za-z0-9_][^{;]*\\{"))
(type_definition
  type: [(struct_specifier !name body: (_) @body) (union_specifier !name body: (_) @body)]
  .
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier !name body: (_) @body)
  .
  declarator: (type_identifier) @name) @definition.enum

; Fields: a struct's or union's field declaration, named by its first
; declarator; further declarators (`int a, *b;`) are fields of their own,
; each its declarator (`char name[16];`, a function pointer
; `void (*cb)(int);`).
(field_declaration declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (field_identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
  ]) @definition.field
(field_declaration declarator: (_) declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (field_identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
  ] @definition.field)

; Enumerators: constants of their enum.
(enumerator name: (identifier) @name) @definition.constant

; References:
; - calls: `f(…)`, `s.f(…)`, `p->f(…)` (a macro called like a function too);
; - types: every type name (`size_t`, `point`), and a struct, union or enum
;   named where it is used (`struct node *next`);
; - imports: each `#include`'s path.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(type_identifier) @name @reference.type
(preproc_include path: [(string_literal) (system_lib_string)] @name) @reference.import

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read
