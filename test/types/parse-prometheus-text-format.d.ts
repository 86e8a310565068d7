// The parser ships no types; the tests read its output through their own Family type.
declare module 'parse-prometheus-text-format' {
  export default function parse(text: string): unknown[];
}
