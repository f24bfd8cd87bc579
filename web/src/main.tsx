// The entry point: renders the app into #app (the shell served by Tidemark at every app path).
import { render } from 'preact';
import { App } from './app';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
