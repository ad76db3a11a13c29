using Microsoft.Extensions.FileProviders;

namespace HubSample;

/// <summary>Serves the built dashboard, cross-origin isolated.</summary>
public static class Dashboard
{
    public static WebApplication UseDashboard(this WebApplication app, string dashboardDir)
    {
        var root = Path.GetFullPath(dashboardDir, app.Environment.ContentRootPath);
        if (!File.Exists(Path.Combine(root, "index.html")))
        {
            app.MapGet("/", () => Results.Text(
                $"The dashboard is not built: no index.html in {root}. Run 'npm run build', or pass --DashboardDir <folder>.",
                statusCode: StatusCodes.Status404NotFound));
            return app;
        }

        // Cross-origin isolation turns on 5 us performance.now() in the page and its workers
        // (0.1 ms otherwise). Both headers must be on the page and on every worker/module script.
        // "credentialless", not "require-corp": the page's no-cors probe of a hub's origin (is
        // anything there, or did CORS refuse the page?) must see an answer from any server, and a
        // server that sends no Cross-Origin-Resource-Policy is most of them.
        app.Use(async (context, next) =>
        {
            context.Response.OnStarting(() =>
            {
                if (!context.Request.Path.StartsWithSegments("/signalrbench"))
                {
                    context.Response.Headers["Cross-Origin-Opener-Policy"] = "same-origin";
                    context.Response.Headers["Cross-Origin-Embedder-Policy"] = "credentialless";
                }
                return Task.CompletedTask;
            });
            await next();
        });

        var files = new PhysicalFileProvider(root);
        app.UseDefaultFiles(new DefaultFilesOptions { FileProvider = files });
        app.UseStaticFiles(new StaticFileOptions { FileProvider = files });
        return app;
    }
}
