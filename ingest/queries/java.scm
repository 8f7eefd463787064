; Java. Doc comments are Javadoc `/** */` and Markdown doc comments `///`
; (JEP 467). Annotations live inside `modifiers`, a child of the declaration,
; so a doc comment directly precedes its declaration node.
; Records are classes (a Java record is a restricted class); annotation types
; (`@interface`) are interfaces. Java has no top-level functions: every method
; and constructor is a method owned by its class, interface, enum or record.

; Header: the comments at the top of the file (a license or file comment).
; A `/** */` comment is a header only when a package or import follows it,
; otherwise it is the doc comment of the first type.
(program ((block_comment) @header (#not-match? @header "^/\\*\\*")))
(program ((line_comment) @header (#not-match? @header "^///")))
(program . (block_comment) @header . [(package_declaration) (import_declaration)])

((block_comment) @doc (#match? @doc "^/\\*\\*"))
((line_comment) @doc (#match? @doc "^///"))
; Annotations live inside `modifiers`; the engine cuts the leading ones from
; signatures and keeps the keywords after them.
(marker_annotation) @attribute
(annotation) @attribute

; Imports: the imported name (`java.util.List`, `java.util` for `java.util.*`,
; `java.lang.Math.max` for a static import).
(import_declaration [(scoped_identifier) (identifier)] @import)

; Types.
(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(record_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.enum
(interface_declaration name: (identifier) @name body: (interface_body) @body) @definition.interface
(annotation_type_declaration name: (identifier) @name body: (annotation_type_body) @body) @definition.interface

; Methods and constructors declared in a type body (not in anonymous classes).
(class_declaration
  body: (class_body
    [(method_declaration name: (identifier) @name body: (block)? @body)
     (constructor_declaration name: (identifier) @name body: (constructor_body) @body)] @definition.method))
(record_declaration
  body: (class_body
    [(method_declaration name: (identifier) @name body: (block)? @body)
     (constructor_declaration name: (identifier) @name body: (constructor_body) @body)
     (compact_constructor_declaration name: (identifier) @name body: (block) @body)] @definition.method))
(enum_declaration
  body: (enum_body
    (enum_body_declarations
      [(method_declaration name: (identifier) @name body: (block)? @body)
       (constructor_declaration name: (identifier) @name body: (constructor_body) @body)] @definition.method)))
(interface_declaration
  body: (interface_body
    (method_declaration name: (identifier) @name body: (block)? @body) @definition.method))
(annotation_type_declaration
  body: (annotation_type_body
    (annotation_type_element_declaration name: (identifier) @name) @definition.method))

; Constants: `static final` fields, and interface / annotation constants
; (implicitly static final). Instance fields and locals are not variables.
(class_body
  (field_declaration
    (modifiers) @_mods
    declarator: (variable_declarator name: (identifier) @name value: (_)? @body)) @definition.variable
  (#match? @_mods "\\bstatic\\b")
  (#match? @_mods "\\bfinal\\b"))
; Further declarators of one declaration (`static final int A = 1, B = 2;`)
; are their own variables, with the declarator alone as signature.
(class_body
  (field_declaration
    (modifiers) @_mods
    "," . (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
  (#match? @_mods "\\bstatic\\b")
  (#match? @_mods "\\bfinal\\b"))
(enum_body_declarations
  (field_declaration
    (modifiers) @_mods
    declarator: (variable_declarator name: (identifier) @name value: (_)? @body)) @definition.variable
  (#match? @_mods "\\bstatic\\b")
  (#match? @_mods "\\bfinal\\b"))
(interface_body
  (constant_declaration
    declarator: (variable_declarator name: (identifier) @name value: (_)? @body)) @definition.variable)
(annotation_type_body
  (constant_declaration
    declarator: (variable_declarator name: (identifier) @name value: (_)? @body)) @definition.variable)
