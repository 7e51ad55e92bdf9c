import { useSearchParams } from '@solidjs/router'

type Raw = Record<string, string | string[] | undefined>

/**
 * `useSearchParams` with each parameter once: a repeated one (`q=a&q=b`, from a hand-edited or
 * pasted-together link) reads as its first value, never as an array a page would trip over (the
 * search page went blank on `q=slug&q=x`). Reads stay reactive: each goes to the router's own.
 */
export function useSingleSearchParams<T extends Record<string, string | undefined>>() {
  const [raw, set] = useSearchParams()
  const first = (key: string): string | undefined => {
    const value = (raw as Raw)[key]
    return Array.isArray(value) ? value[0] : value
  }
  const params = new Proxy({} as T, {
    get: (_target, key) => (typeof key === 'string' ? first(key) : undefined),
    has: (_target, key) => key in raw,
    ownKeys: () => Reflect.ownKeys(raw),
    getOwnPropertyDescriptor: (_target, key) =>
      typeof key === 'string' && key in raw ? { enumerable: true, configurable: true, value: first(key) } : undefined,
  })
  return [params, set] as const
}
