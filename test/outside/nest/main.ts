/**
 * A NestJS 12 app (platform-express) written from the Petstore interface
 * document as Nest's guides teach; test/outside/nest-app.ts starts it as its
 * own process, as `nest start` would, with its key in API_KEY.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeyGuard, PetsController, PetsService } from './pets.controller.ts';

@Module({ controllers: [PetsController], providers: [PetsService, ApiKeyGuard] })
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
app.setGlobalPrefix('v1');
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
console.log(`Nest application listening on ${await app.getUrl()}`);
