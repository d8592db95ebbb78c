// The libraries the app shell is built on, evaluated in a task of their own before the shell's
// code (client/main.tsx), so that neither evaluation is one long task on a slow phone.
import 'react';
import 'react-dom/client';
import '@tanstack/react-query';
import 'wouter';
