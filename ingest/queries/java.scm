; Java.
;
; Conventions:
; - Doc comments are Javadoc `/** */` and Markdown doc comments `///`
;   (JEP 467). Annotations live inside `modifiers`, a child of the
;   declaration, so a doc comment directly precedes its declaration node.
; - Every declaration is matched at any depth: nested, local (in a method
;   body or a lambda) and anonymous-class types and members alike. The engine
;   computes owners from the enclosing definitions (`Outer.Inner`,
;   `Outer.method.Local`).
; - Types: classes; records are classes (a restricted class); enums;
;   interfaces; annotation types (`@interface`) are interfaces.
; - Java has no top-level functions: every method, constructor and
;   annotation element is a method, owned by its type.
; - An anonymous class body (`new Foo() { … }`) owns its members under the
;   name of the type it extends (`Outer.method.Foo`); an enum constant's body
;   owns its members under the constant's name (`Planet.EARTH`).
; - Values: every field declarator (`int a, b;` gives `a` and `b`) is a
;   field, a record component too; `static final` fields, interface and
;   annotation constants (implicitly static final) are constants; enum
;   constants are constants of their enum. Locals
;   (`local_variable_declaration`, parameters) are never captured, so no
;   `@local.scope` is needed.
; - A declaration without a body (an abstract or interface method, a field
;   without a value) is cut at its `;`, so that its signature holds the whole
;   declaration, also when it spans lines.

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

; Types, at any depth.
(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(record_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.enum
(interface_declaration name: (identifier) @name body: (interface_body) @body) @definition.interface
(annotation_type_declaration name: (identifier) @name body: (annotation_type_body) @body) @definition.interface

; Supertypes: `extends` and `implements` of classes, records and enums,
; `extends` of interfaces (the engine keeps each type's bare name).
; (Types only: a comment inside the list is no supertype.)
(class_declaration (superclass [(type_identifier) (scoped_type_identifier) (generic_type)] @supertype)) @definition.class
(class_declaration (super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @supertype))) @definition.class
(record_declaration (super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @supertype))) @definition.class
(enum_declaration (super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @supertype))) @definition.enum
(interface_declaration (extends_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @supertype))) @definition.interface

; Anonymous class bodies and enum constant bodies own their members.
(object_creation_expression
  type: [(type_identifier) @name
         (scoped_type_identifier (type_identifier) @name .)
         (generic_type . (type_identifier) @name)
         (generic_type . (scoped_type_identifier (type_identifier) @name .))]
  (class_body) @scope)
(enum_constant name: (identifier) @name body: (class_body) @scope)

; Methods, constructors and annotation elements, at any depth (also in
; anonymous classes and enum constant bodies).
(method_declaration name: (identifier) @name body: (block) @body) @definition.method
(method_declaration name: (identifier) @name !body ";" @body) @definition.method
(constructor_declaration name: (identifier) @name body: (constructor_body) @body) @definition.method
(compact_constructor_declaration name: (identifier) @name body: (block) @body) @definition.method
(annotation_type_element_declaration name: (identifier) @name ";" @body) @definition.method

; Fields: the first declarator's definition is the whole declaration (its
; signature keeps modifiers and type), cut at the value, or else after the
; declarator; each further declarator is its own definition, the declarator
; alone as signature. `static final` fields are constants, the others fields.
; (The `,` before a further declarator is not anchored to it: with
; `"," . (variable_declarator)` tree-sitter matches only the second one.)
((field_declaration
   (modifiers)? @_mods
   type: (_) . declarator: (variable_declarator name: (identifier) @name value: (_) @body)) @definition.field
  (#not-match? @_mods "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))
((field_declaration
   (modifiers)? @_mods
   type: (_) . declarator: (variable_declarator name: (identifier) @name !value) . [";" ","] @body) @definition.field
  (#not-match? @_mods "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))
((field_declaration
   (modifiers)? @_mods
   "," (variable_declarator name: (identifier) @name value: (_)? @body) @definition.field)
  (#not-match? @_mods "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))
((field_declaration
   (modifiers) @_mods
   type: (_) . declarator: (variable_declarator name: (identifier) @name value: (_) @body)) @definition.constant
  (#match? @_mods "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))
((field_declaration
   (modifiers) @_mods
   type: (_) . declarator: (variable_declarator name: (identifier) @name !value) . [";" ","] @body) @definition.constant
  (#match? @_mods "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))
((field_declaration
   (modifiers) @_mods
   "," (variable_declarator name: (identifier) @name value: (_)? @body) @definition.constant)
  (#match? @_mods "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))

; Interface and annotation constants (implicitly static final), each
; declarator like a field's.
(constant_declaration
  type: (_) . declarator: (variable_declarator name: (identifier) @name value: (_) @body)) @definition.constant
(constant_declaration
  "," (variable_declarator name: (identifier) @name value: (_) @body) @definition.constant)

; Record components are the record's fields.
(record_declaration
  parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.field))

; Enum constants, owned by their enum, cut at their arguments or body; a
; bare constant is cut at the `,`, `;` or `}` after it, so that its
; signature is its name.
(enum_constant name: (identifier) @name) @definition.constant
(enum_constant arguments: (argument_list) @body) @definition.constant
(enum_constant !arguments body: (class_body) @body) @definition.constant
(enum_body
  (enum_constant !arguments !body) @definition.constant
  . ["," "}" (enum_body_declarations)] @body)

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the method or class around it as `in`):
; - calls: method calls by name (`a.b.write(…)` is `write`), constructors
;   (`new HashMap<>()`, `new a.B()` is `B`), method references
;   (`Writer::flushAll`);
; - types: every type name (fields, parameters, generic arguments, `extends`,
;   `implements`, `throws`, casts; also a type parameter's own name, `T` of
;   `<T extends R>`), annotations, and the class of a static call
;   (`Json.stringify(…)`: a capitalized receiver with a lower-case letter, so
;   not a constant such as `LOG`);
; - imports: the imported name (`List` of `java.util.List`,
;   `requireNonNull` of a static import, and its class `Objects`), the
;   package of `java.util.*`.
(method_invocation name: (identifier) @name) @reference.call
((method_invocation object: (identifier) @name) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_$]*[a-z]"))
(object_creation_expression
  type: [(type_identifier) @name
         (scoped_type_identifier (type_identifier) @name .)
         (generic_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)])]) @reference.call
(method_reference (identifier) @name .) @reference.call
(type_identifier) @name @reference.type
(marker_annotation name: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.type
(annotation name: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.type
((import_declaration (scoped_identifier name: (identifier) @name)) @reference.import
  (#not-match? @reference.import "\\*"))
(import_declaration (scoped_identifier) @name (asterisk)) @reference.import
; A static import uses its class too (`Preconditions` of
; `import static com.google.common.base.Preconditions.checkNotNull`).
((import_declaration "static" (scoped_identifier scope: (scoped_identifier name: (identifier) @name))) @reference.import
  (#not-match? @reference.import "\\*"))

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read
