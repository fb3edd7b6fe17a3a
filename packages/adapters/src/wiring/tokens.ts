import type {
  Authenticate, CoreDeps, ReconfigureTenant, CreateApiKey, CreateTenant, EraseLearner, GetLearner, ListApiKeys, ListLearners,
  RateLimitStore, RegisterLearner, Repositories, RevokeApiKey, UnitOfWork, UpdateLearner,
} from '@fundi/application';
import type * as Training from '@fundi/application';
import type { Clock, SecretGenerator } from '@fundi/domain';
import type { Logger } from 'pino';
import type { SqlDb } from '../db/sql-db.js';
import type { TokenSigner } from '../system/node-secrets.js';
import { token } from './provide.js';

/** Every service identifier of the container, typed. */
export const T = {
  SqlDb: token<SqlDb>('SqlDb'),
  Repositories: token<Repositories>('Repositories'),
  UnitOfWork: token<UnitOfWork>('UnitOfWork'),
  Clock: token<Clock>('Clock'),
  Secrets: token<SecretGenerator>('SecretGenerator'),
  Signer: token<TokenSigner>('TokenSigner'),
  RateLimits: token<RateLimitStore>('RateLimitStore'),
  Logger: token<Logger>('Logger'),
  AccessLogger: token<Logger>('AccessLogger'),
  CoreDeps: token<CoreDeps>('CoreDeps'),

  RegisterLearner: token<RegisterLearner>('RegisterLearner'),
  GetLearner: token<GetLearner>('GetLearner'),
  ListLearners: token<ListLearners>('ListLearners'),
  UpdateLearner: token<UpdateLearner>('UpdateLearner'),
  EraseLearner: token<EraseLearner>('EraseLearner'),
  CreateTenant: token<CreateTenant>('CreateTenant'),
  CreateApiKey: token<CreateApiKey>('CreateApiKey'),
  ListApiKeys: token<ListApiKeys>('ListApiKeys'),
  RevokeApiKey: token<RevokeApiKey>('RevokeApiKey'),
  Authenticate: token<Authenticate>('Authenticate'),
  ReconfigureTenant: token<ReconfigureTenant>('ReconfigureTenant'),
  CreateProgramme: token<Training.CreateProgramme>('CreateProgramme'),
  GetProgramme: token<Training.GetProgramme>('GetProgramme'),
  ListProgrammes: token<Training.ListProgrammes>('ListProgrammes'),
  UpdateProgramme: token<Training.UpdateProgramme>('UpdateProgramme'),
  RetireProgramme: token<Training.RetireProgramme>('RetireProgramme'),
  DeleteProgramme: token<Training.DeleteProgramme>('DeleteProgramme'),
  EnrolLearner: token<Training.EnrolLearner>('EnrolLearner'),
  GetEnrolment: token<Training.GetEnrolment>('GetEnrolment'),
  ListEnrolments: token<Training.ListEnrolments>('ListEnrolments'),
  ChangeEnrolmentStatus: token<Training.ChangeEnrolmentStatus>('ChangeEnrolmentStatus'),
  GetEnrolmentHistory: token<Training.GetEnrolmentHistory>('GetEnrolmentHistory'),
  RecordAssessment: token<Training.RecordAssessment>('RecordAssessment'),
  GetAssessment: token<Training.GetAssessment>('GetAssessment'),
  ListAssessments: token<Training.ListAssessments>('ListAssessments'),
  ModerateAssessment: token<Training.ModerateAssessment>('ModerateAssessment'),
  GetModeration: token<Training.GetModeration>('GetModeration'),
  SampleForModeration: token<Training.SampleForModeration>('SampleForModeration'),
} as const;
