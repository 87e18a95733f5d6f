import { createRoot } from 'react-dom/client';
import '@/components/theme.css';
import './options.css';
import { OptionsApp } from '@/components/options/OptionsApp';

createRoot(document.getElementById('root')!).render(<OptionsApp />);
