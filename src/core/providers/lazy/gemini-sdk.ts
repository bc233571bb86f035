// Loaded when the first Gemini provider is made (its own bundle, dist/lazy/: see scripts/lazy-modules.mjs).
export { ApiError, GoogleGenAI } from '@google/genai';
