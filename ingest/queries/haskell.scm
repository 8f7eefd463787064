; Haskell.
;
; Conventions:
; - Doc comments are Haddock's `-- |` lines (and `{-| -}` blocks) touching
;   the definition; the comments at the top of the file (a licence, the
;   module's doc) are the header. (`-- ^` comments after a definition, and
;   a `-- |` before the first declaration, which the grammar keeps with the
;   imports, are not found.)
; - Types: `data` and `newtype` are structs, their constructors constants
;   and record fields fields, owned by the type; `type` synonyms and type
;   and data families types; a `class` an interface whose signatures are
;   methods; `instance C T` makes `C` a supertype of `T` (its bindings are
;   methods of `T`), and a class's context (`class Show a => C a`) makes
;   `Show` a supertype of `C`.
; - Functions: a top-level function is its type signature (`area :: Shape ->
;   Double`), or its first equation when it has none (the equations of one
;   function follow each other); the same in an instance. Bindings in
;   `where` and `let` are locals. `foreign import` and pattern synonyms are
;   functions too.
; - References: calls (`f x`, `M.f x`: `f`; constructors applied), the
;   types named in signatures and declarations, and imports: the module
;   (`Data.Map.Strict`) and each name of an import list.

(haskell (comment) @header)
(haskell (haddock) @header)
(haddock) @doc
(pragma) @attribute

; Imports: the module.
(import module: (module) @import)

; Types.
(data_type name: (name) @name) @definition.struct
(newtype name: (name) @name) @definition.struct
(type_synonym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type
(data_family name: (name) @name) @definition.type
(class name: (name) @name declarations: (_)? @body) @definition.interface
(data_constructor constructor: [(prefix name: (constructor) @name) (record name: (constructor) @name)]) @definition.constant
(newtype_constructor name: (constructor) @name) @definition.constant
(gadt_constructor name: (constructor) @name) @definition.constant
(fields (field name: (field_name (variable) @name)) @definition.field)
(newtype_constructor field: (record (field name: (field_name (variable) @name)) @definition.field))

; Supertypes: a class's context; an instance's class, of the type it is for.
(class context: (context [(apply constructor: (name) @supertype)
                          (tuple (apply constructor: (name) @supertype))])) @definition.interface
(instance
  name: [(name) (qualified)] @supertype
  patterns: (type_patterns . [(name) @name (apply constructor: (name) @name) (parens (apply constructor: (name) @name))])
  declarations: (_)) @scope

; Functions: the signature, else the first equation (one not following an
; equation or signature of the same name).
(declarations (signature name: [(variable) (prefix_id)] @name) @definition.function)
; `a, b :: T`: each name alone.
(declarations (signature names: (binding_list (variable) @name @definition.function)))
(declarations . [(function name: (variable) @name) (bind name: (variable) @name)] @definition.function)
; (`@_before` is captured: uncaptured, tree-sitter's cursor misses some of
; these matches. After `a, b :: T`, `a`'s equation is no definition.)
((declarations (_ !name) @_before . [(function name: (variable) @name) (bind name: (variable) @name)] @definition.function)
  (#not-match? @_before "^[a-z_][A-Za-z0-9_']*\\s*,"))
((declarations (_ name: (_) @_prev) . [(function name: (variable) @name) (bind name: (variable) @name)] @definition.function)
  (#not-eq? @_prev @name))
(class_declarations (signature name: [(variable) (prefix_id)] @name) @definition.method)
(class_declarations (signature names: (binding_list (variable) @name @definition.method)))
(instance_declarations . [(function name: (variable) @name) (bind name: (variable) @name)] @definition.method)
((instance_declarations (_ !name) @_before . [(function name: (variable) @name) (bind name: (variable) @name)] @definition.method)
  (#not-match? @_before "^[a-z_][A-Za-z0-9_']*\\s*,"))
((instance_declarations (_ name: (_) @_prev) . [(function name: (variable) @name) (bind name: (variable) @name)] @definition.method)
  (#not-eq? @_prev @name))
(foreign_import signature: (signature name: (variable) @name)) @definition.function
((pattern_synonym (equation synonym: (constructor) @name)) @definition.function)

; References.
(apply function: [(variable) @name (qualified id: (variable) @name) (constructor) @name (qualified id: (constructor) @name)]) @reference.call
(name) @name @reference.type
(qualified id: (name) @name) @reference.type
(import module: (module) @name) @reference.import
(import_name [(variable) @name (name) @name]) @reference.import

; Reads of named values: every variable read is a candidate; the engine
; keeps those that name a value (`kName`, or a constant the file defines)
; and are no other kind of use.
(variable) @name @reference.read
