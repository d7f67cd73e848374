import { expect, test } from './fixtures';
import { startSamlTestIdp } from '../localstack/saml-idp/idp';
import { createProject, expectNoA11yViolations, expectNoA11yViolationsInBothThemes, newUser, registerByApi, setProjectPlan } from './support';

test('social sign-in is configured from the catalogue, an organization is created, edited and deleted, and a SAML provider added from its metadata, once the plan includes each', async ({ page }) => {
  await registerByApi(page, newUser('federation'));
  const projectId = await createProject(page, 'Federated');

  // Social sign-in: nothing configured yet; a kind from the catalogue opens its form with the redirect URI.
  await page.goto(`/projects/${projectId}/social-signin`);
  await expect(page.getByRole('heading', { level: 1, name: 'Social sign-in' })).toBeVisible();
  await expect(page.getByTestId('social-providers-empty')).toBeVisible();
  await page.getByTestId('social-add-generic').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/social-signin/generic\\?kind=generic$`));
  await expect(page.getByTestId('social-redirect-uri-value')).toContainText('/self-service/methods/oidc/callback/generic');
  await page.getByTestId('social-label').fill('Acme SSO');
  await page.getByTestId('social-client-id').fill('acme-client');
  await page.getByTestId('social-client-secret').fill('acme-secret');
  // A generic provider needs its issuer: the server's refusal lands on the field.
  await page.getByTestId('social-provider-form-submit').click();
  await expect(page.getByTestId('social-provider-form')).toContainText('issuer URL');
  await page.getByTestId('social-issuer-url').fill('https://idp.example.com');
  await page.getByTestId('social-provider-form-submit').click();
  await expect(page).toHaveURL(new RegExp(`/social-signin/generic$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Acme SSO' })).toBeVisible();
  await expect(page.getByTestId('social-client-secret')).toHaveValue('');
  await expectNoA11yViolationsInBothThemes(page, 'social provider');

  // Listed with its mark; deleting it asks first.
  await page.goto(`/projects/${projectId}/social-signin`);
  await expect(page.getByTestId('social-provider-link-generic')).toHaveText('Acme SSO');
  await page.getByTestId('social-provider-link-generic').click();
  await page.getByTestId('social-provider-delete').click();
  await page.getByTestId('delete-social-provider-dialog').getByTestId('confirm-button').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/social-signin$`));
  await expect(page.getByTestId('social-providers-empty')).toBeVisible();

  // Organizations: the Develop plan has none, said with the upgrade prompt.
  await page.goto(`/projects/${projectId}/authentication/organizations`);
  await expect(page.getByTestId('upgrade-prompt')).toContainText('The Growth plan does.');
  await expect(page.getByTestId('organization-create-open')).toBeDisabled();
  // Nor SAML sign-in.
  await page.goto(`/projects/${projectId}/saml`);
  await expect(page.getByTestId('saml-empty')).toBeVisible();
  await expect(page.getByTestId('upgrade-prompt')).toContainText('The Growth plan does.');
  await expect(page.getByTestId('saml-add-submit')).toBeDisabled();

  await setProjectPlan(page, projectId, 'Growth@0');
  await page.goto(`/projects/${projectId}/authentication/organizations`);
  await expect(page.getByTestId('upgrade-prompt')).toHaveCount(0);
  await page.getByTestId('organization-create-open').click();
  const dialog = page.getByTestId('create-organization-dialog');
  await dialog.getByTestId('organization-label').fill('Acme');
  await dialog.getByTestId('organization-domains').fill('acme.example.com, localhost');
  await page.getByTestId('create-organization-submit').click();
  await expect(dialog).toContainText('localhost: A domain name must contain a dot');
  await dialog.getByTestId('organization-domains').fill('acme.example.com');
  await page.getByTestId('create-organization-submit').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Acme' })).toBeVisible();

  // Edited: a second domain, a new name.
  await page.getByTestId('organization-label').fill('Acme Inc');
  await page.getByTestId('organization-domains').fill('acme.example.com\nacme.example.org');
  await page.getByTestId('organization-settings-submit').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Inc' })).toBeVisible();

  // An onboarding link to copy, with its expiry.
  await page.getByTestId('onboarding-link-create').click();
  await expect(page.getByTestId('onboarding-links-table').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('organization-members')).toHaveText('0 members');
  await expectNoA11yViolationsInBothThemes(page, 'organization');

  // The link opens the organization's onboarding portal for someone without a console account.
  const portalUrl = (await page.getByTestId(/^onboarding-link-value-.+-value$/).textContent()) ?? '';
  const outsider = await page.context().browser()!.newPage();
  await outsider.goto(portalUrl);
  await expect(outsider.getByRole('heading', { level: 1, name: 'Single sign-on for Acme Inc' })).toBeVisible();
  await expect(outsider.getByTestId('onboarding-form')).toBeVisible();
  await expectNoA11yViolations(outsider, 'onboarding portal');
  await outsider.close();

  // Found by its new domain in the list.
  await page.goto(`/projects/${projectId}/authentication/organizations?domain=acme.example.org`);
  await expect(page.getByTestId('organization-link-Acme Inc')).toBeVisible();
  await page.getByTestId('organization-link-Acme Inc').click();

  // Deleting it takes its name typed out.
  await page.getByTestId('organization-delete-open').click();
  const confirm = page.getByTestId('delete-organization-dialog');
  await expect(confirm.getByTestId('confirm-button')).toBeDisabled();
  await confirm.getByTestId('confirm-input').fill('Acme Inc');
  await confirm.getByTestId('confirm-button').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/authentication/organizations$`));
  await expect(page.getByText('No organizations yet')).toBeVisible();

  // SAML on Growth: a provider is added from the metadata file of an identity provider (the local test one),
  // whose summary shows before it is saved.
  const idp = await startSamlTestIdp();
  try {
    await page.goto(`/projects/${projectId}/saml`);
    await expect(page.getByTestId('saml-empty')).toBeVisible();
    await expect(page.getByTestId('upgrade-prompt')).toHaveCount(0);
    await page.getByTestId('saml-new-id').fill('corp');
    await page.getByTestId('saml-add-submit').click();
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/saml/corp\\?new=1$`));
    await expect(page.getByTestId('saml-sp-metadata-url-value')).toContainText('/self-service/methods/saml/metadata/corp');
    await expect(page.getByTestId('saml-acs-url-value')).toContainText('/self-service/methods/saml/acs/corp');
    await page.getByTestId('saml-label').fill('Corp SSO');
    await page.getByTestId('saml-metadata-file').setInputFiles({ name: 'idp-metadata.xml', mimeType: 'application/xml', buffer: Buffer.from(idp.metadataXml) });
    await expect(page.getByTestId('saml-metadata-preview-entity-id')).toHaveText(idp.entityId);
    await page.getByTestId('saml-provider-form-submit').click();
    await expect(page).toHaveURL(new RegExp(`/saml/corp$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Corp SSO' })).toBeVisible();
    // The service provider's metadata, linked from the page, carries the project's certificate.
    const spMetadata = await page.request.get((await page.getByTestId('saml-sp-metadata-open').getAttribute('href'))!);
    expect(spMetadata.status()).toBe(200);
    expect(await spMetadata.text()).toMatch(/<KeyDescriptor use="signing">[\s\S]*<KeyDescriptor use="encryption">/);
    await expectNoA11yViolationsInBothThemes(page, 'SAML provider');

    // Listed with what its metadata says: the entity ID and the year its certificate expires.
    await page.goto(`/projects/${projectId}/saml`);
    await expect(page.getByTestId('saml-provider-link-corp')).toHaveText('Corp SSO');
    const table = page.getByTestId('saml-providers-table');
    await expect(table).toContainText(idp.entityId);
    await expect(table).toContainText(String(new Date(Date.now() + 365 * 24 * 3600_000).getUTCFullYear()));
  } finally {
    await idp.close();
  }
});
