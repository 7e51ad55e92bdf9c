/** Time is passed in, so services and tests stay deterministic. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

export const fixedClock = (start: number, stepMs = 0): Clock => {
  let t = start
  return { now: () => (t += stepMs) - stepMs }
}
