// Types for the exports of generate.mjs that Loupe's TypeScript tests use.
import type { ChildProcess } from 'node:child_process'

export interface OpencodeProcess {
  url: string
  child: ChildProcess
  /** SIGTERM, then SIGKILL after 15 s: only this child, by its pid. */
  stop(): Promise<{ code: number | null; sig: NodeJS.Signals | null } | null>
}

export interface ApiOptions {
  directory?: string
  timeoutMs?: number
}

export interface ApiClient {
  get(path: string, options?: ApiOptions): Promise<any>
  post(path: string, body?: unknown, options?: ApiOptions): Promise<any>
}

export declare function ensureOpencode(options: { cache: string; version: string }): string
export declare function isolatedEnv(work: string, configPath: string): Record<string, string>
export declare function writeConfig(file: string, mockUrl: string): void
export declare function startOpencode(options: { bin: string; env: Record<string, string>; cwd: string; logFile: string }): Promise<OpencodeProcess>
export declare function apiClient(base: string): ApiClient
export declare function waitIdle(api: ApiClient, directories: string[], maxMs?: number): Promise<boolean>
export declare function generate(options: Record<string, unknown>): Promise<any>
