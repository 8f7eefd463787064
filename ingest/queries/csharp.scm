; C#. Doc comments are `///` XML doc lines (and `/** */`); attribute lists
; (`[Obsolete]`) are children of the declaration, so a doc comment directly
; precedes its declaration node. Declarations are found at any depth, so
; types inside block-scoped and file-scoped namespaces are extracted alike
; (a namespace itself is not an element). `record` / `record class` are
; classes, `record struct` is a struct.

; Header: the non-doc comments at the top of the file.
(compilation_unit ((comment) @header (#not-match? @header "^(///|/\\*\\*)")))

((comment) @doc (#match? @doc "^(///|/\\*\\*)"))
(attribute_list) @attribute

; Imports: `using A.B;`, `using static A.B;`, `global using A.B;` and the target
; of an alias (`using J = A.B;`).
(using_directive !name (_) @import)
(using_directive name: (identifier) "=" . (_) @import)

; Types.
(class_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.class
(struct_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.struct
(interface_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.interface
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list)? @body) @definition.enum
((record_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.class
  (#not-match? @definition.class "^(\\[[^\\]]*\\]\\s*|\\w+\\s+)*record\\s+struct\\b"))
((record_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.struct
  (#match? @definition.struct "^(\\[[^\\]]*\\]\\s*|\\w+\\s+)*record\\s+struct\\b"))

; Methods, constructors, destructors and operators: members of a type body
; (local functions are `local_function_statement`, never matched).
(declaration_list
  [(method_declaration name: (identifier) @name body: (_)? @body)
   (constructor_declaration name: (identifier) @name body: (_)? @body)
   (destructor_declaration name: (identifier) @name body: (_)? @body)
   (operator_declaration body: (_)? @body)
   (conversion_operator_declaration body: (_)? @body)] @definition.method)

; Constants and static fields (instance fields and locals are not variables).
((field_declaration
   (modifier) @_mod
   (variable_declaration
     . type: (_)
     . (variable_declarator name: (identifier) @name ("=" . (_) @body)?))) @definition.variable
  (#any-of? @_mod "const" "static"))
; Further declarators of one declaration (`const int A = 1, B = 2;`), with the
; declarator alone as signature.
((field_declaration
   (modifier) @_mod
   (variable_declaration
     "," . (variable_declarator name: (identifier) @name ("=" . (_) @body)?) @definition.variable))
  (#any-of? @_mod "const" "static"))
