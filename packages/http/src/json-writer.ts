/** A character JSON.stringify writes escaped: `"`, `\`, a control character, or half of a surrogate pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Thrown by `other` for a value JSON.stringify leaves out of an object (undefined, a function, a symbol). */
const LEFT_OUT = new Error('a field JSON.stringify leaves out');

/**
 * A value that is no string to write as it is, boolean or null, by JSON.stringify itself (strings to escape,
 * numbers, nested objects, `toJSON`).
 */
function other(v: unknown): string {
  const json = JSON.stringify(v) as string | undefined;
  if (json === undefined) throw LEFT_OUT;
  return json;
}

/**
 * A writer of JSON text for objects of one shape: the fields `fields`, in that order, and no others (objects made
 * by one object literal, such as `learnerView`'s). It gives the text `JSON.stringify(value)` gives, byte for byte:
 * strings with nothing to escape are quoted as they are, anything else goes through JSON.stringify, and an object
 * with a field JSON.stringify would leave out is written by JSON.stringify whole. It is generated once, as one
 * expression that reads each field by name: JSON.stringify looks at every key, value and type of the object
 * again on each call, which for a learner's 38 fields costs more (docs/performance.md, "GET learner by id on SQLite").
 */
export function jsonWriter(fields: readonly string[]): (value: object) => string {
  // Each field is its name's text and its value's: a string with nothing to escape joins the name's text with its
  // opening quote (a constant), so it costs two joins and no quoted copy of the string.
  const parts = fields.map((f, i) => {
    const v = `o[${JSON.stringify(f)}]`;
    const head = `${i === 0 ? '{' : ','}${JSON.stringify(f)}:`;
    return `(typeof ${v} === 'string' && !escaped.test(${v}) ? ${JSON.stringify(`${head}"`)} + ${v} + '"' : ${JSON.stringify(head)} + (${v} === null ? 'null' : ${v} === true ? 'true' : ${v} === false ? 'false' : other(${v})))`;
  });
  const body = fields.length === 0 ? "'{}'" : `${parts.join(' + ')} + '}'`;
  const write = new Function('escaped', 'other', `return (o) => ${body};`)(ESCAPED, other) as (value: object) => string;
  return (value) => {
    try {
      return write(value);
    } catch (e) {
      if (e === LEFT_OUT) return JSON.stringify(value);
      throw e;
    }
  };
}
