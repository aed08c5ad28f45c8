import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './styles/app.css';
import { App } from './App';

const root = document.getElementById('root');
if (root === null) throw new Error('no #root in index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
