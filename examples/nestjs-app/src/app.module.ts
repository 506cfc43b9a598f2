import { Module, type DynamicModule } from '@nestjs/common';
import { AuthorizerModule, type AuthorizerModuleOptions } from './authorizer.module.js';
import { VerificationsController } from './verifications.controller.js';

/** The host app: its own controller, and the authorizer module. */
@Module({})
export class AppModule {
  static forRoot(options: AuthorizerModuleOptions = {}): DynamicModule {
    return { module: AppModule, imports: [AuthorizerModule.forRoot(options)], controllers: [VerificationsController] };
  }
}
