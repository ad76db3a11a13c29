# The hub-sample (ASP.NET Core SignalR) as a container, on Microsoft's ASP.NET Core runtime image,
# built with the .NET SDK image. Build from the repository's root:
#   docker build -f deploy/hub-sample.Dockerfile -t hub-sample:0.1.0 .
# Run:  docker run --rm -p 5180:5180 hub-sample:0.1.0
# Settings are its usual command-line settings (docs/hub-sample.md), after the image name; they
# replace the CMD below, so keep --Host 0.0.0.0 (it listens on 127.0.0.1 by default).
# Not built here (no container runtime was reachable when it was written): see docs/kubernetes.md.

FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /src
COPY hub-sample/HubSample.csproj hub-sample/
RUN dotnet restore hub-sample/HubSample.csproj
COPY hub-sample/ hub-sample/
RUN dotnet publish hub-sample/HubSample.csproj -c Release -o /app --no-restore --nologo

FROM mcr.microsoft.com/dotnet/aspnet:10.0
WORKDIR /app
COPY --from=build /app .
# The image's unprivileged user (uid 1654); 5180 needs no privilege.
USER app
EXPOSE 5180
ENTRYPOINT ["dotnet", "HubSample.dll"]
CMD ["--Host", "0.0.0.0", "--port", "5180"]
