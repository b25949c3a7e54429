import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
// Global styles in cascade order; each view imports its own (features/*/*.css).
import './styles/theme.css';
import './styles/base.css';
import './styles/components.css';
import './styles/tables.css';
import './styles/print.css';
import './styles/details.css';
import './narrow.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
