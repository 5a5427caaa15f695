#!/usr/bin/env node
// The installed bin starts the mock the fast way npm start does (mock/start.cjs: an esbuild bundle, tsx as fallback).
import '../mock/start.cjs';
