/**
 * The pets controller, its service and the API-key guard, as NestJS's
 * "Controllers", "Providers" and "Guards" guides write them: the guard throws
 * UnauthorizedException, a missing pet is a NotFoundException, and
 * ValidationPipe (whitelist on) checks the DTOs. tsx (esbuild) emits no
 * decorator metadata, so the service is injected by token and each pipe is
 * given its DTO as `expectedType`.
 */
import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Inject,
  Injectable,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Query,
  UnauthorizedException,
  UseGuards,
  ValidationPipe,
} from '@nestjs/common';
import { CreatePetDto, ListPetsQueryDto } from './pets.dto.ts';

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

/** Keeps the pets in memory. */
@Injectable()
export class PetsService {
  private readonly pets: Pet[] = [];
  private nextId = 1;

  list(query: ListPetsQueryDto): Pet[] {
    return this.pets.filter((p) => !query.status || p.status === query.status).slice(0, query.limit ?? 20);
  }

  create(dto: CreatePetDto): Pet {
    const pet: Pet = { id: this.nextId++, ...dto };
    this.pets.push(pet);
    return pet;
  }

  find(id: number): Pet | undefined {
    return this.pets.find((p) => p.id === id);
  }
}

/** Lets a request through when it carries `Authorization: Bearer <API_KEY>`. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    const [type, token] = request.headers.authorization?.split(' ') ?? [];
    if (type !== 'Bearer' || token !== process.env.API_KEY) throw new UnauthorizedException();
    return true;
  }
}

/** `GET /pets`, `POST /pets`, `GET /pets/:petId`. */
@Controller('pets')
@UseGuards(ApiKeyGuard)
export class PetsController {
  constructor(@Inject(PetsService) private readonly petsService: PetsService) {}

  @Get()
  list(@Query(new ValidationPipe({ transform: true, expectedType: ListPetsQueryDto })) query: ListPetsQueryDto): Pet[] {
    return this.petsService.list(query);
  }

  @Post()
  create(@Body(new ValidationPipe({ whitelist: true, expectedType: CreatePetDto })) dto: CreatePetDto): Pet {
    return this.petsService.create(dto);
  }

  @Get(':petId')
  get(@Param('petId', ParseIntPipe) petId: number): Pet {
    const pet = this.petsService.find(petId);
    if (!pet) throw new NotFoundException(`Pet ${petId} not found`);
    return pet;
  }
}
