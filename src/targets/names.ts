// Names in generated code, for every back end: a source name made legal in the target's
// identifier syntax (legalName, by the target's NameRules), and names kept unique within one
// scope of the output (Namer). Each back end states its rules once; the spelling of a name is the
// same wherever it is made.

/** A target's identifier syntax. */
export interface NameRules {
  /** Characters a name may not hold (each becomes "_"); a global regular expression. */
  readonly invalid: RegExp;
  /** Runs of "_" collapse to one (WGSL reserves names that start with "__"). */
  readonly collapseUnderscores?: boolean;
  /** Whether a name (after the replacements) may not start as it does; it then gets `prefix`. */
  readonly badStart: (name: string) => boolean;
  readonly prefix: string;
  /** Words the target (or gpuc's own generated names) reserves: a name equal to one gets "_" appended. */
  readonly reserved: ReadonlySet<string>;
}

/** `name` in the target's syntax. */
export function legalName(name: string, rules: NameRules): string {
  let n = name.replace(rules.invalid, "_");
  if (rules.collapseUnderscores) n = n.replace(/__+/g, "_");
  if (rules.badStart(n)) n = rules.prefix + n;
  return rules.reserved.has(n) ? n + "_" : n;
}

/** Names unique within one scope of the output. */
export class Namer {
  private readonly used = new Set<string>();
  /** Per name, the k its next other spelling is tried from (spellings before it are taken). */
  private readonly tried = new Map<string, number>();

  /** `next(name, k)`: the k-th other spelling tried when `name` is taken (k = 1, 2, …). */
  constructor(private readonly next: (name: string, k: number) => string) {}

  /**
   * `name`, or the first of its other spellings not taken yet; taken from now on. (A kernel with
   * thousands of temporaries of one name takes each in constant time: the search goes on from
   * where the last one for that name stopped.)
   */
  take(name: string): string {
    let n = name;
    if (this.used.has(n)) {
      let k = this.tried.get(name) ?? 1;
      while (this.used.has((n = this.next(name, k)))) k++;
      this.tried.set(name, k + 1);
    }
    this.used.add(n);
    return n;
  }

  /** Take `name` as it is (a fixed name the output needs), whether or not it was taken. */
  reserve(name: string): string {
    this.used.add(name);
    return name;
  }
}

/** Other spellings by numbered suffixes: `n_1`, `n_2`, … (never longer than a few digits). */
export const numbered = (name: string, k: number): string => `${name}_${k}`;
