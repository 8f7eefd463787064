; TSX (TypeScript with JSX): exactly the TypeScript query, which the TSX
; grammar accepts as it is (JSX values are plain values to it).
; inherits: typescript
