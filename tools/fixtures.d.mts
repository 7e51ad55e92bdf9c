export declare const DEFAULT_FIXTURE: { sessions: number; v2Sessions: number; projects: number }
export declare function fixturesRoot(): string
export declare function ensureRealFixture(
  options?: Partial<{ sessions: number; v2Sessions: number; projects: number }>,
  settings?: { name?: string; quiet?: boolean },
): Promise<string>
