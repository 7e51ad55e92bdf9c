import { onMount, type ParentProps } from 'solid-js'

export interface ModalProps {
  label: string
  onClose: () => void
  class?: string
}

/** A native modal dialog: focus is trapped, Escape and a click on the backdrop close it. */
export function Modal(props: ParentProps<ModalProps>) {
  let dialog: HTMLDialogElement | undefined
  onMount(() => {
    if (dialog && typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal()
    // Focus the dialog itself, not its close button, so no focus ring greets a mouse user.
    dialog?.focus()
  })
  return (
    <dialog
      ref={dialog}
      tabIndex={-1}
      class={`modal ${props.class ?? ''}`}
      aria-label={props.label}
      onClose={() => props.onClose()}
      onClick={(event) => {
        if (event.target === dialog) dialog?.close()
      }}
    >
      <div class="modal-body">
        <button type="button" class="modal-close icon-button" aria-label="Close" onClick={() => dialog?.close()}>
          ×
        </button>
        {props.children}
      </div>
    </dialog>
  )
}
