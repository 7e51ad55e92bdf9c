export declare const DEFAULT_FIXTURE: { sessions: number; v2Sessions: number; projects: number }
export declare const BLOAT_FIXTURE: { sessions: number; v2Sessions: number; projects: number; scenarios: string }
export declare function fixturesRoot(): string
export declare function ensureRealFixture(
  options?: Partial<{ sessions: number; v2Sessions: number; projects: number; scenarios: string }>,
  settings?: { name?: string; quiet?: boolean },
): Promise<string>
