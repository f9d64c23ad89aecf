; TSX (.tsx) definitions, calls, imports and base types: exactly the TypeScript query, loaded through the
; `inherits:` line below (the tsx grammar has the same node types plus JSX).
; JSX elements (<Row />) are not calls and are not captured; calls inside JSX expressions are.
; inherits: typescript
