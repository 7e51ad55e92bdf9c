import type { NativeMessage } from '@loupe/domain'
import type { MessageModel } from './message-model'
import { modelFromV1 } from './v1-model'
import { modelFromV2 } from './v2-model'

/** Either generation's native message as one view model; never throws on malformed JSON. */
export function toMessageModel(message: NativeMessage): MessageModel {
  return message.storage === 'v1' ? modelFromV1(message) : modelFromV2(message)
}
