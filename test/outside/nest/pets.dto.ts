/**
 * The request shapes of the Petstore interface as class-validator DTOs, the
 * way NestJS's "Validation" guide writes them.
 */
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** NewPet: `name` and `categoryId` required, `status` optional. */
export class CreatePetDto {
  @IsString()
  name!: string;

  @IsInt()
  categoryId!: number;

  @IsOptional()
  @IsIn(PET_STATUSES)
  status?: string;
}

/** The query of `GET /pets`: `limit` 1..100, `status` one of PetStatus. */
export class ListPetsQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsIn(PET_STATUSES)
  status?: string;
}
