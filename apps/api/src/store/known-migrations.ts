import { V1_MIGRATIONS, V2_MIGRATIONS } from '@loupe/domain'

export const KNOWN_MIGRATIONS: ReadonlySet<string> = new Set([...V1_MIGRATIONS, ...V2_MIGRATIONS])
