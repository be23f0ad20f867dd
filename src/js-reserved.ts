// The words JavaScript reserves (in strict code, with the two names strict code may not bind):
// what the JS back end never names a variable, and what no binding of JS read back may be.

export const JS_RESERVED_WORDS: readonly string[] = `break case catch class const continue debugger default delete do else enum export extends false
  finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield
  let static implements interface package private protected public await arguments eval`.split(/\s+/);
