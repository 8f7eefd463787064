; Kotlin (tree-sitter-kotlin-ng). Doc comments are KDoc `/** */`. Annotations
; usually sit inside `modifiers` (a child of the declaration); at the top
; level an annotation with arguments on its own line parses as an
; `annotated_expression` sibling, captured as an attribute so the doc-comment
; walk skips it.
; `class_declaration` covers classes, interfaces (`interface` keyword) and
; enums (`enum` class modifier). Data, sealed, value and annotation classes and
; `object`s are classes. Companion-object members belong to the enclosing class.

; Header: the comments at the top of the file. A `/** */` comment is a header
; only when a package or import follows it.
(source_file ((block_comment) @header (#not-match? @header "^/\\*\\*")))
(source_file ((line_comment) @header))
(source_file . (block_comment) @header . [(package_header) (import)])

((block_comment) @doc (#match? @doc "^/\\*\\*"))
(annotation) @attribute
(source_file (annotated_expression) @attribute)
(source_file (file_annotation) @attribute)

; Imports: the imported name (`a.b.C`; `a.b` for `a.b.*`; aliases dropped).
(import (qualified_identifier) @import)

; Interfaces (also `fun interface`).
(class_declaration
  "interface"
  name: (identifier) @name
  (class_body)? @body) @definition.interface

; Enum classes.
(class_declaration
  (modifiers (class_modifier "enum"))
  name: (identifier) @name
  (enum_class_body)? @body) @definition.enum

; Other classes: plain, data, sealed, abstract, value, annotation classes.
(class_declaration
  (modifiers)? @_mods
  "class"
  name: (identifier) @name
  (class_body)? @body
  (#not-match? @_mods "(^|\\s)enum(\\s|$)")) @definition.class

; Objects.
(object_declaration name: (identifier) @name (class_body)? @body) @definition.class

; Top-level functions (extension functions included).
(source_file
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)

; Methods: functions in a class, object, companion object or enum body (not
; local functions, not members of anonymous objects).
(class_declaration
  (class_body
    (function_declaration name: (identifier) @name (function_body)? @body) @definition.method))
(class_declaration
  (enum_class_body
    (function_declaration name: (identifier) @name (function_body)? @body) @definition.method))
(object_declaration
  (class_body
    (function_declaration name: (identifier) @name (function_body)? @body) @definition.method))
(companion_object
  (class_body
    (function_declaration name: (identifier) @name (function_body)? @body) @definition.method))

; Top-level properties (`val`, `var`, `const val`); the value, delegate or
; getter is the body.
(source_file
  (property_declaration
    (variable_declaration (identifier) @name)
    "="? . (_)? @body) @definition.variable)
(source_file
  (property_declaration
    (variable_declaration (identifier) @name)
    [(property_delegate) (getter)] @body) @definition.variable)
(source_file
  (property_declaration
    (multi_variable_declaration (variable_declaration (identifier) @name))
    "=" . (_) @body) @definition.variable)

; Class-level constants: `const val` in objects and companion objects.
(class_body
  (property_declaration
    (modifiers (property_modifier "const"))
    (variable_declaration (identifier) @name)
    "=" . (_) @body) @definition.variable)

; Type aliases, like Rust's `type` items.
(source_file
  (type_alias type: (identifier) @name "=" . (_) @body) @definition.variable)
