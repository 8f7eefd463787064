; PHP.
;
; Conventions:
; - Doc comments are PHPDoc blocks (`/** … */`) touching the declaration;
;   attributes (`#[Route('/')]`) are children of the declaration, so the
;   block directly precedes it. The comments at the top of the file (after
;   `<?php`) are the header.
; - Namespaces are scopes: `namespace A\B;` owns the rest of the file,
;   `namespace A\B { … }` its block; a namespace itself is not an element.
; - Types: classes, interfaces, traits (traits), enums; supertypes are a
;   class's `extends` and `implements`, an interface's `extends` and a
;   class's `use`d traits, each by its own name (`\Psr\Log\LoggerInterface`
;   -> `LoggerInterface`).
; - Methods (owned by their type), functions (also nested in a function or
;   a method: owned by it), properties (fields, named without `$`; a
;   constructor's promoted parameters are not: they stand in a method),
;   class constants and enum cases (constants), `const` and
;   `define('NAME', …)` at file level (constants).
; - References: calls of functions, methods (`$a->f()`, `$a?->f()`) and
;   static methods (`A::f()`: `f`, and `A` as a type), constructions
;   (`new Foo()`), types (parameter, return and property types, `instanceof`,
;   `catch`, supertypes and `use`d traits), and imports (`use A\B\C;` -> `A\B\C`; `require`/`include`'d
;   files).

(program (comment) @header)
; `<?php` before the header is skipped, as a shebang.
(php_tag) @attribute
((comment) @doc (#match? @doc "^/\\*\\*"))
(attribute_list) @attribute

; Namespaces: a file-scoped one owns the whole file.
(namespace_definition name: (namespace_name) @name body: (compound_statement)) @namespace
(program (namespace_definition name: (namespace_name) @name !body)) @namespace

; Imports.
(namespace_use_clause . [(name) (qualified_name)] @import)
(namespace_use_declaration (namespace_name) @import (namespace_use_group))

; Types.
(class_declaration name: (name) @name body: (declaration_list) @body) @definition.class
(interface_declaration name: (name) @name body: (declaration_list) @body) @definition.interface
(trait_declaration name: (name) @name body: (declaration_list) @body) @definition.trait
(enum_declaration name: (name) @name body: (enum_declaration_list) @body) @definition.enum

; Supertypes.
(class_declaration (base_clause [(name) (qualified_name)] @supertype)) @definition.class
(class_declaration (class_interface_clause [(name) (qualified_name)] @supertype)) @definition.class
(interface_declaration (base_clause [(name) (qualified_name)] @supertype)) @definition.interface
(enum_declaration (class_interface_clause [(name) (qualified_name)] @supertype)) @definition.enum
(class_declaration body: (declaration_list (use_declaration [(name) (qualified_name)] @supertype))) @definition.class

; Functions and methods (an abstract or interface method ends at its `;`).
(function_definition name: (name) @name body: (_) @body) @definition.function
(method_declaration name: (name) @name body: (_)? @body) @definition.method

; Properties: a declaration named by its first element (`public int $a = 1,
; $b;` is `public int $a`), further elements fields of their own.
(property_declaration (property_element name: (variable_name (name) @name) default_value: (_)? @body)) @definition.field
(property_declaration (property_element) (property_element name: (variable_name (name) @name)) @definition.field)

; Constants: class constants (as properties), enum cases, `const` at file
; level and `define('NAME', …)`.
(const_declaration (const_element (name) @name (_) @body)) @definition.constant
(const_declaration (const_element) (const_element (name) @name) @definition.constant)
(enum_case name: (name) @name) @definition.constant
((function_call_expression
   function: (name) @_define
   arguments: (arguments . (argument (string (string_content) @name)))) @definition.constant
  (#eq? @_define "define"))

; References.
(function_call_expression function: [(name) @name (qualified_name (name) @name)]) @reference.call
(member_call_expression name: (name) @name) @reference.call
(nullsafe_member_call_expression name: (name) @name) @reference.call
(scoped_call_expression name: (name) @name) @reference.call
(scoped_call_expression scope: [(name) @name (qualified_name (name) @name)]) @reference.type
(object_creation_expression [(name) @name (qualified_name (name) @name)]) @reference.call
(named_type [(name) @name (qualified_name (name) @name)]) @reference.type
(binary_expression operator: "instanceof" right: [(name) @name (qualified_name (name) @name)]) @reference.type
(catch_clause type: (type_list (named_type [(name) @name (qualified_name (name) @name)]))) @reference.type
(base_clause [(name) @name (qualified_name (name) @name)]) @reference.type
(class_interface_clause [(name) @name (qualified_name (name) @name)]) @reference.type
(use_declaration [(name) @name (qualified_name (name) @name)]) @reference.type
(namespace_use_clause . [(name) (qualified_name)] @name) @reference.import
([(include_expression) (include_once_expression) (require_expression) (require_once_expression)]
  (string (string_content) @name)) @reference.import

; Reads of named values: every name read is a candidate (a constant
; `PHP_EOL`, `self::MAX`); the engine keeps those that name a value (upper
; case, or a constant the file defines) and are no other kind of use.
(name) @name @reference.read
