import { For } from 'solid-js'
import { Modal } from './modal'

const GROUPS: { title: string; keys: [string[], string][] }[] = [
  {
    title: 'Anywhere',
    keys: [
      [['?'], 'Show this sheet'],
      [['/'], 'Search all history (the last search again)'],
      [['g', 'o'], 'Go to the overview'],
      [['g', 's'], 'Go to sessions'],
      [['g', 'd'], 'Go to storage (database)'],
      [['Esc'], 'Close a dialog, or go back'],
    ],
  },
  {
    title: 'Session list',
    keys: [
      [['j', '↓'], 'Next session'],
      [['k', '↑'], 'Previous session'],
      [['Enter'], 'Open the selected session'],
      [['f'], 'Focus the filter box'],
    ],
  },
  {
    title: 'Search',
    keys: [
      [['↓', '↑'], 'Next / previous result'],
      [['Enter'], 'Open the result at its part'],
      [['Esc'], 'Clear the query'],
    ],
  },
  {
    title: 'Session',
    keys: [
      [['j', 'k'], 'Next / previous message'],
      [['t', 'b', 'i'], 'Transcript / Bytes / Gallery tab'],
      [['f'], 'Search in this session'],
      [['Home', 'End'], 'First / latest messages'],
      [['Esc', '⌫'], 'Back to the search results or the list'],
    ],
  },
]

/** The keyboard shortcut reference, opened with `?`. */
export function ShortcutSheet(props: { onClose: () => void }) {
  return (
    <Modal label="Keyboard shortcuts" onClose={props.onClose} class="shortcut-sheet">
      <h2>Keyboard shortcuts</h2>
      <div class="shortcut-groups">
        <For each={GROUPS}>
          {(group) => (
            <section>
              <h3>{group.title}</h3>
              <dl>
                <For each={group.keys}>
                  {([keys, label]) => (
                    <>
                      <dt>
                        <For each={keys}>{(key) => <kbd>{key}</kbd>}</For>
                      </dt>
                      <dd>{label}</dd>
                    </>
                  )}
                </For>
              </dl>
            </section>
          )}
        </For>
      </div>
    </Modal>
  )
}
