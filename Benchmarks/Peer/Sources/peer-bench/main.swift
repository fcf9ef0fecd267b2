import Foundation

// peer-bench: Sesame side by side with swift-openapi-generator 1.14.3 (issue 15).
//
//   peer-bench write --models N --into DIR
//       writes DIR/openapi (openapi.yaml + its config) and DIR/sesame (sdk, auth, models.yaml)
//   peer-bench generate [--models 500,2000] [--runs 3]
//       times each CLI, a new process per run, into an empty folder, alternating the tools
//   peer-bench compile [--models 500] [--runs 3] [--swiftc-flag F]...
//       times a clean debug build of the generated target alone (its dependencies built
//       before), then rebuilds after a one-model change, alternating the tools; with
//       --sesame-before PATH --package-before PATH, a second Sesame (an older `sesame` and the
//       runtime it generates for) in the same alternation; --peer none leaves the peer out
//
// Common options: --work DIR (default .work), --sesame PATH and --peer PATH (the CLIs; default
// next to this executable, as `swift build -c release --product ...` puts them), --package
// PATH (Sesame's package, default ../.. of the current folder). `run.sh` builds and runs it.
// Every figure is a child process's wait4: wall, user + system CPU of it and its descendants,
// and the largest resident size of any one of them. Each line carries the 1-minute load.

struct Options {
    var command = ""
    var models: [Int] = []
    var runs = 3
    var work = ".work"
    var into = ""
    var swiftcFlags: [String] = []
    var setupBuild = true
    var sesame: String
    var sesameBefore: String?
    var packageBefore: String?
    var peer: String
    var package: String

    /// Whether the peer takes part (`--peer none` leaves it out).
    var withPeer: Bool { peer != "none" }

    init(_ arguments: [String]) throws {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let here = FileManager.default.currentDirectoryPath
        sesame = bin.appendingPathComponent("sesame").path
        peer = bin.appendingPathComponent("swift-openapi-generator").path
        package = URL(fileURLWithPath: here).appendingPathComponent("../..").standardizedFileURL.path
        var rest = arguments[...]
        guard let command = rest.popFirst() else { throw Failure(Self.usage) }
        self.command = command
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Failure("\(option) needs a value\n\(Self.usage)") }
            switch option {
            case "--models": models = try value.split(separator: ",").map { try Self.int(String($0)) }
            case "--runs": runs = try Self.int(value)
            case "--work": work = value
            case "--into": into = value
            case "--sesame": sesame = value
            case "--sesame-before": sesameBefore = value
            case "--peer": peer = value
            case "--package": package = value
            case "--package-before": packageBefore = URL(fileURLWithPath: value).standardizedFileURL.path
            case "--swiftc-flag": swiftcFlags.append(value)
            case "--setup-build": setupBuild = value != "no"
            default: throw Failure("unknown option \(option)\n\(Self.usage)")
            }
        }
        work = URL(fileURLWithPath: work).standardizedFileURL.path
    }

    static func int(_ text: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw Failure("not a positive number: \(text)") }
        return value
    }

    static let usage = """
        usage: peer-bench write --models N --into DIR
               peer-bench generate [--models 500,2000] [--runs 3] [--work DIR]
               peer-bench compile [--models 500] [--runs 3] [--work DIR] [--swiftc-flag FLAG]... [--setup-build no]
        options: --sesame PATH, --peer PATH (the CLIs), --package PATH (Sesame's package folder),
                 --sesame-before PATH (a second sesame binary, in the same alternation; compile needs
                 --package-before PATH too, the Sesame package its code builds against), --peer none
        """
}

/// One tool under test: how it generates into a folder.
struct Tool {
    var name: String
    var generate: (_ api: String, _ output: String) -> [String]
}

func tools(_ options: Options, before: Bool = false) -> [Tool] {
    let earlier = options.sesameBefore.flatMap { path in
        before ? Tool(name: "sesame-before") { api, output in [path, "generate", api + "/sesame", "--output", output] } : nil
    }
    let peer = Tool(name: "peer") { api, output in
        [
            options.peer, "generate", api + "/openapi/openapi.yaml", "--config", api + "/openapi/openapi-generator-config.yaml",
            "--output-directory", output,
        ]
    }
    return [
        Tool(name: "sesame") { api, output in [options.sesame, "generate", api + "/sesame", "--output", output] }
    ] + (earlier.map { [$0] } ?? []) + (options.withPeer ? [peer] : [])
}

/// Alternation: even runs start with Sesame, odd runs with the peer.
func order(_ run: Int, _ tools: [Tool]) -> [Tool] { run % 2 == 0 ? tools : tools.reversed() }

func line(_ fields: [String: String]) {
    let keys = fields.keys.sorted()
    print("{" + keys.map { "\"\($0)\": \"\(fields[$0]!)\"" }.joined(separator: ", ") + "}")
    // Each figure as it comes, also when standard output is a file or a pipe.
    fflush(nil)
}

func swiftFiles(_ folder: String) -> (files: Int, lines: Int) {
    var files = 0
    var lines = 0
    for case let path as String in FileManager.default.enumerator(atPath: folder) ?? FileManager.default.enumerator(atPath: "/")!
    where path.hasSuffix(".swift") {
        files += 1
        let data = FileManager.default.contents(atPath: folder + "/" + path) ?? Data()
        lines += data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
    return (files, lines)
}

func summarize(_ title: String, _ results: [String: [Usage]]) {
    guard let ours = results["sesame"] else { return }
    guard let theirs = results["peer"] else {
        summarizeSesame(title, results)
        return
    }
    func row(_ name: String, _ usages: [Usage]) -> String {
        "| \(name) | \(format(median(usages.map(\.wall)))) | \(format(median(usages.map(\.cpu)))) | "
            + "\(format(median(usages.map(\.user)))) | \(format(median(usages.map(\.system)))) | \(Int(median(usages.map(\.peakMB)))) |"
    }
    print("\n\(title) (median of \(ours.count))")
    print("| tool | wall s | CPU s | user s | sys s | peak MB |")
    print("|---|---:|---:|---:|---:|---:|")
    print(row("sesame", ours))
    if let before = results["sesame-before"] { print(row("sesame-before", before)) }
    print(row("peer", theirs))
    let wall = median(ours.map(\.wall)) / median(theirs.map(\.wall))
    let cpu = median(ours.map(\.cpu)) / median(theirs.map(\.cpu))
    let pairs = zip(ours, theirs).map { format($1.wall / $0.wall, 1) }.joined(separator: ", ")
    print(
        "sesame / peer: wall \(format(wall, 3))× (peer \(format(1 / wall, 1))× slower), CPU \(format(cpu, 3))×; "
            + "peer / sesame wall per run: \(pairs)")
    if let before = results["sesame-before"] {
        let ratio = median(theirs.map(\.wall)) / median(before.map(\.wall))
        print(
            "sesame-before: peer \(format(ratio, 1))× slower (wall); sesame / sesame-before wall \(format(median(ours.map(\.wall)) / median(before.map(\.wall)), 3))×"
        )
    }
    print()
}

/// Sesame against the older Sesame alone (`--peer none`): medians, and the ratio per pair.
func summarizeSesame(_ title: String, _ results: [String: [Usage]]) {
    guard let ours = results["sesame"], let before = results["sesame-before"] else { return }
    print("\n\(title) (median of \(ours.count))")
    print("| tool | wall s | CPU s | user s | sys s | peak MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for (name, usages) in [("sesame", ours), ("sesame-before", before)] {
        print(
            "| \(name) | \(format(median(usages.map(\.wall)))) | \(format(median(usages.map(\.cpu)))) | "
                + "\(format(median(usages.map(\.user)))) | \(format(median(usages.map(\.system)))) | \(Int(median(usages.map(\.peakMB)))) |"
        )
    }
    let pairs = zip(ours, before).map { format($0.cpu / $1.cpu, 3) }.joined(separator: ", ")
    print(
        "sesame / sesame-before: wall \(format(median(ours.map(\.wall)) / median(before.map(\.wall)), 3))×, "
            + "CPU \(format(median(ours.map(\.cpu)) / median(before.map(\.cpu)), 3))×; CPU per pair: \(pairs)\n")
}

// MARK: generate

func generate(_ options: Options) throws {
    let tools = tools(options, before: true)
    for models in options.models.isEmpty ? [500, 2000] : options.models {
        let folder = "\(options.work)/generate-\(models)"
        try SyntheticAPI(models: models).write(openAPIFolder: folder + "/openapi", sesameFolder: folder + "/sesame")
        var results: [String: [Usage]] = [:]
        for run in 0..<options.runs {
            for tool in order(run, tools) {
                let output = "\(folder)/out-\(tool.name)"
                try? FileManager.default.removeItem(atPath: output)
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                let load = loadAverage()
                let usage = try ChildProcess.check(tool.generate(folder, output), log: "\(folder)/\(tool.name).log")
                let generated = swiftFiles(output)
                results[tool.name, default: []].append(usage)
                line([
                    "bench": "generate", "tool": tool.name, "models": "\(models)", "run": "\(run + 1)", "wall": format(usage.wall, 3),
                    "user": format(usage.user, 3), "sys": format(usage.system, 3), "peak_mb": format(usage.peakMB, 0),
                    "files": "\(generated.files)", "swift_lines": "\(generated.lines)", "load": load,
                ])
            }
        }
        summarize("generate, \(models) models, \(max(1, models / 4)) operations", results)
    }
}

// MARK: compile

/// A throwaway package per tool: the generated files in one target that depends on what the
/// generated code imports (Sesame's runtime, resp. swift-openapi-runtime and swift-http-types).
struct BuildPackage {
    var tool: Tool
    var folder: String
    var target: String

    var sources: String { "\(folder)/Sources/\(target)" }

    static func make(_ tool: Tool, work: String, sesamePackage: String) throws -> BuildPackage {
        let folder = "\(work)/\(tool.name)-package"
        let target = tool.name.hasPrefix("sesame") ? "BenchSDK" : "BenchAPI"
        let manifest: String
        if tool.name.hasPrefix("sesame") {
            manifest = """
                // swift-tools-version: 6.1
                import PackageDescription
                let package = Package(
                    name: "SesameBuild", platforms: [.macOS(.v14)],
                    dependencies: [.package(name: "Sesame", path: "\(sesamePackage)")],
                    targets: [.target(name: "\(target)", dependencies: [.product(name: "Sesame", package: "Sesame")])],
                    swiftLanguageModes: [.v6])

                """
        } else {
            manifest = """
                // swift-tools-version: 6.1
                import PackageDescription
                let package = Package(
                    name: "PeerBuild", platforms: [.macOS(.v14)],
                    dependencies: [
                        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
                        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
                    ],
                    targets: [
                        .target(name: "\(target)", dependencies: [
                            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                            .product(name: "HTTPTypes", package: "swift-http-types"),
                        ])
                    ],
                    swiftLanguageModes: [.v6])

                """
        }
        try SyntheticAPI.write(["Package.swift": manifest], into: folder)
        try FileManager.default.createDirectory(atPath: "\(folder)/Sources/\(target)", withIntermediateDirectories: true)
        return BuildPackage(tool: tool, folder: folder, target: target)
    }

    func generate(_ api: String, log: String) throws {
        _ = try ChildProcess.check(tool.generate(api, sources), log: log)
    }

    /// Deletes the target's objects, incremental state and module only, so the next build
    /// compiles it alone. The output file map, the sources list and the header folder stay:
    /// SwiftPM writes them when it plans the build, and an unchanged package is not planned
    /// again.
    func clean() throws {
        let debug = URL(fileURLWithPath: "\(folder)/.build/debug").resolvingSymlinksInPath().path
        let manager = FileManager.default
        let objects = "\(debug)/\(target).build"
        for name in (try? manager.contentsOfDirectory(atPath: objects)) ?? []
        where !["output-file-map.json", "sources", "include"].contains(name) {
            try manager.removeItem(atPath: "\(objects)/\(name)")
        }
        for name in (try? manager.contentsOfDirectory(atPath: "\(debug)/Modules")) ?? [] where name.hasPrefix("\(target).") {
            try manager.removeItem(atPath: "\(debug)/Modules/\(name)")
        }
    }

    func build(_ flags: [String], log: String) throws -> Usage {
        try ChildProcess.check(
            ["swift", "build", "--package-path", folder, "--target", target] + flags.flatMap { ["-Xswiftc", $0] }, log: log)
    }
}

func compile(_ options: Options) throws {
    if options.sesameBefore != nil, options.packageBefore == nil {
        throw Failure("compile --sesame-before needs --package-before PATH (the Sesame package its code builds against)")
    }
    let tools = tools(options, before: true)
    let models = options.models.first ?? 500
    let work = "\(options.work)/compile-\(models)"
    let api = "\(work)/api"
    var packages: [BuildPackage] = []
    for tool in tools {
        let sesamePackage = tool.name == "sesame-before" ? options.packageBefore ?? options.package : options.package
        let package = try BuildPackage.make(tool, work: work, sesamePackage: sesamePackage)
        packages.append(package)
    }
    let log = { (package: BuildPackage) in "\(work)/\(package.tool.name)-build.log" }
    // The dependencies (and a first build of the target), outside the timing.
    try SyntheticAPI(models: models).write(openAPIFolder: api + "/openapi", sesameFolder: api + "/sesame")
    for package in packages {
        try package.generate(api, log: log(package))
        let generated = swiftFiles(package.sources)
        print("setup: \(package.tool.name) generated \(generated.files) files, \(generated.lines) lines")
        // `--setup-build no` when an earlier run already built the dependencies.
        if options.setupBuild { _ = try package.build(options.swiftcFlags, log: log(package)) }
    }
    var clean: [String: [Usage]] = [:]
    for run in 0..<options.runs {
        for package in order(run, packages.map(\.tool)).map({ tool in packages.first { $0.tool.name == tool.name }! }) {
            try package.clean()
            let load = loadAverage()
            let usage = try package.build(options.swiftcFlags, log: log(package))
            clean[package.tool.name, default: []].append(usage)
            line([
                "bench": "clean-build", "tool": package.tool.name, "models": "\(models)", "run": "\(run + 1)",
                "wall": format(usage.wall, 2), "user": format(usage.user, 2), "sys": format(usage.system, 2),
                "peak_mb": format(usage.peakMB, 0), "load": load,
            ])
        }
    }
    summarize("clean debug build of the generated target, \(models) models", clean)

    // One model changes (a property added, then removed again): regenerate, untimed, then
    // time the incremental build.
    var incremental: [String: [Usage]] = [:]
    for run in 0..<options.runs {
        var changed = SyntheticAPI(models: models)
        changed.changed = run % 2 == 0
        try changed.write(openAPIFolder: api + "/openapi", sesameFolder: api + "/sesame")
        for package in packages { try package.generate(api, log: log(package)) }
        for package in order(run, packages.map(\.tool)).map({ tool in packages.first { $0.tool.name == tool.name }! }) {
            let load = loadAverage()
            let usage = try package.build(options.swiftcFlags, log: log(package))
            incremental[package.tool.name, default: []].append(usage)
            line([
                "bench": "incremental-build", "tool": package.tool.name, "models": "\(models)", "run": "\(run + 1)",
                "changed": changed.changed ? "added extra to \(SyntheticAPI.modelName(changed.changedModel))" : "removed it",
                "wall": format(usage.wall, 2), "user": format(usage.user, 2), "sys": format(usage.system, 2),
                "peak_mb": format(usage.peakMB, 0), "load": load,
            ])
        }
    }
    summarize("incremental debug build after a one-model change, \(models) models", incremental)
}

// MARK: main

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    switch options.command {
    case "write":
        guard let models = options.models.first, !options.into.isEmpty else { throw Failure(Options.usage) }
        try SyntheticAPI(models: models).write(openAPIFolder: options.into + "/openapi", sesameFolder: options.into + "/sesame")
    case "generate": try generate(options)
    case "compile": try compile(options)
    default: throw Failure(Options.usage)
    }
} catch {
    FileHandle.standardError.write(Data("peer-bench: \(error)\n".utf8))
    exit(1)
}
