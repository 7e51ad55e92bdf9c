import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'

const env = { HOME: '/home/someone' }

describe('loadConfig: the live window', () => {
  it('defaults to 10 minutes, and takes the flag over LOUPE_LIVE_WINDOW_MINUTES', () => {
    expect(loadConfig([], env).liveWindowMinutes).toBe(10)
    expect(loadConfig([], { ...env, LOUPE_LIVE_WINDOW_MINUTES: '30' }).liveWindowMinutes).toBe(30)
    expect(loadConfig(['--live-window-minutes', '5'], { ...env, LOUPE_LIVE_WINDOW_MINUTES: '30' }).liveWindowMinutes).toBe(5)
    expect(loadConfig(['--live-window-minutes=0'], env).liveWindowMinutes).toBe(0)
  })

  it.each(['-1', 'soon', '2.5', String(8 * 24 * 60)])('refuses %s minutes with the usage', (value) => {
    expect(() => loadConfig(['--live-window-minutes', value], env)).toThrow(ConfigError)
  })

  it('reads the credentials Loupe sends to OpenCode\'s servers', () => {
    const config = loadConfig([], { ...env, OPENCODE_SERVER_USERNAME: 'alice', OPENCODE_SERVER_PASSWORD: 'pw' })
    expect(config).toMatchObject({ opencodeUsername: 'alice', opencodePassword: 'pw' })
  })
})
