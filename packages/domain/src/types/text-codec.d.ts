// TextEncoder/TextDecoder exist in Node 20 and every browser, but not in the ES lib;
// domain stays free of DOM and node: types, so declare just what it uses.
declare class TextEncoder {
  encode(input?: string): Uint8Array
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean })
  decode(input?: Uint8Array): string
}
