import { createRoot } from 'react-dom/client';
import '@/components/theme.css';
import './options.css';
import { OptionsApp } from './OptionsApp';

createRoot(document.getElementById('root')!).render(<OptionsApp />);
