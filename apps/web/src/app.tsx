export function App() {
  return <main>Loupe</main>
}
