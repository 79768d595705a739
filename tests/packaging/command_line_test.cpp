// faultline and faultline-cli as a user runs them from a terminal: --help, --version, usage
// errors and exit statuses, --quiet and the progress line, the manual pages and bash completion.
#include "test_runs.h"

#include "cli/commands.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <pty.h>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::CommandResult;
using test::ScratchDir;

const std::string kCli = FAULTLINE_CLI;
const std::string kApp = FAULTLINE_APP;

CommandResult cli(const std::string& args) { return test::runCommand(kCli + " " + args); }
CommandResult cliStdout(const std::string& args) { return test::runCommand(kCli + " " + args + " 2>/dev/null", false); }

// Every command faultline-cli has, from its own table.
std::vector<const cli::CommandSpec*> allSpecs() {
    std::vector<const cli::CommandSpec*> specs;
    for (const cli::Command& c : cli::commands()) specs.push_back(&c.spec());
    return specs;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A manual page as man shows it: troff's "\-" is a plain dash.
std::string manPage(const std::string& name) {
    std::string text = readFile(std::string(FAULTLINE_SOURCE_DIR) + "/docs/" + name);
    return std::regex_replace(text, std::regex(R"(\\-)"), "-");
}

// Runs `command` with stderr (and stdout) on a pseudo-terminal, as in a person's shell.
CommandResult runOnTerminal(const std::string& command) {
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    std::string output;
    char buffer[4096];
    for (ssize_t n; (n = read(master, buffer, sizeof buffer)) > 0;) output.append(buffer, static_cast<std::size_t>(n));
    int status = 0;
    waitpid(pid, &status, 0);
    close(master);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST(CommandLine, TopLevelHelpListsEveryCommand) {
    ASSERT_FALSE(allSpecs().empty());
    for (const char* flag : {"--help", "-h"}) {
        const CommandResult r = cliStdout(flag);
        EXPECT_EQ(r.status, 0) << flag;
        EXPECT_EQ(r.output.rfind("usage: faultline-cli COMMAND", 0), 0u) << r.output;
        for (const cli::CommandSpec* spec : allSpecs()) EXPECT_NE(r.output.find("  " + spec->name + " "), std::string::npos) << spec->name;
        EXPECT_NE(r.output.find("2  usage error"), std::string::npos) << "exit statuses documented";
    }
}

TEST(CommandLine, EveryCommandHelpHasItsSynopsisAndEveryOption) {
    ASSERT_FALSE(allSpecs().empty());
    for (const cli::CommandSpec* spec : allSpecs()) {
        const CommandResult r = cliStdout(spec->name + " --help");
        ASSERT_EQ(r.status, 0) << spec->name << ": " << r.output;
        EXPECT_EQ(r.output.rfind("usage: faultline-cli " + spec->name + " " + spec->synopsis + "\n", 0), 0u) << r.output;
        ASSERT_FALSE(spec->options.empty());
        for (const cli::OptionSpec& o : spec->options) {
            const std::string shown = o.name + (o.value.empty() ? "" : " " + o.value);
            EXPECT_NE(r.output.find(shown), std::string::npos) << spec->name << " --help lacks " << shown;
        }
        EXPECT_NE(r.output.find("-h, --help"), std::string::npos);
        EXPECT_NE(r.output.find("exit status:"), std::string::npos);
        EXPECT_EQ(cliStdout(spec->name + " -h").output, r.output) << "-h is --help";
        // --help wins over anything else on the line, as in other tools.
        EXPECT_EQ(cliStdout(spec->name + " --no-such-option --help").status, 0);
    }
}

TEST(CommandLine, VersionNamesTheReleaseAndTheBuild) {
    for (const char* flag : {"--version", "-v"}) {
        const CommandResult r = cliStdout(flag);
        EXPECT_EQ(r.status, 0);
        EXPECT_EQ(r.output.rfind(std::string("faultline-cli ") + FAULTLINE_EXPECTED_VERSION + "\nbuild: git ", 0), 0u) << r.output;
    }
}

TEST(CommandLine, UsageErrorsExitTwoWithTheUsageLine) {
    ScratchDir dir;
    const std::string out = dir.file("a.faultline");
    struct Case {
        std::string args, message, usage;
    };
    const std::vector<Case> cases = {
        {"simulate --frobnicate -o " + out, "faultline-cli simulate: unknown option --frobnicate\n", "simulate"},
        {"simulate --preset tiny", "needs an output file", "simulate"},
        {"simulate --preset tiny --seed x -o " + out, "option --seed expects a whole number, not \"x\"", "simulate"},
        {"simulate --preset huge -o " + out, "option --preset expects llama3-405b, tiny, meta-24k-roce, meta-24k-ib or fleet-350k", "simulate"},
        {"simulate --preset tiny -o", "option -o needs a value", "simulate"},
        {"simulate --preset tiny --checkpoint-interval soon -o " + out, "expects a duration such as 10m", "simulate"},
        {"import -o " + out, "import needs files or folders", "import"},
        {"import " + dir.path().string(), "import needs an output file", "import"},
        {"summary", "summary takes one run file", "summary"},
        {"summary a b", "summary takes one run file", "summary"},
        {"summary --json=yes a", "option --json takes no value", "summary"},
        {"incidents a --id twelve", "option --id expects a whole number", "incidents"},
        {"stragglers a --limit 0", "option --limit expects a count of at least 1", "stragglers"},
        {"hang", "hang needs Flight Recorder dumps", "hang"},
        {"merge -o " + out, "merge needs the shard files", "merge"},
        {"import --shard 3/2 " + dir.path().string() + " -o " + out, "--shard expects I/N", "import"},
    };
    for (const Case& c : cases) {
        const CommandResult r = cli(c.args);
        EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
        EXPECT_NE(r.output.find("usage: faultline-cli " + c.usage + " "), std::string::npos) << c.args << "\n" << r.output;
        EXPECT_FALSE(std::filesystem::exists(out)) << c.args << " wrote its output";
    }
    for (const std::string args : {"", "teleport", "--frobnicate"}) {
        const CommandResult r = cli(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_NE(r.output.find("usage: faultline-cli COMMAND"), std::string::npos) << r.output;
    }
    EXPECT_TRUE(cliStdout("summary").output.empty()) << "usage errors go to stderr";
}

TEST(CommandLine, FailuresOnGoodArgumentsExitOneWithoutTheUsage) {
    ScratchDir dir;
    const CommandResult r = cli("summary " + dir.file("missing.faultline"));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.output, "faultline-cli summary: " + dir.file("missing.faultline") + ": no such file\n");
}

TEST(CommandLine, QuietPrintsNothingAndStillWrites) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    const CommandResult r = cli("simulate --preset tiny --quiet -o " + path);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.output, "");
    EXPECT_TRUE(std::filesystem::exists(path));
    const CommandResult onTerminal = runOnTerminal(kCli + " simulate --preset tiny -q -o " + dir.file("again.faultline"));
    EXPECT_EQ(onTerminal.status, 0);
    EXPECT_EQ(onTerminal.output, "") << "no progress line under --quiet, even on a terminal";
}

TEST(CommandLine, ProgressLineOnlyWhenStderrIsATerminal) {
    ScratchDir dir;
    // A run big enough to take a moment: the line says what is being done, then is erased.
    const std::string args = " simulate --preset tiny --gpus 2048 --days 10 -o ";
    const CommandResult terminal = runOnTerminal(kCli + args + dir.file("a.faultline"));
    ASSERT_EQ(terminal.status, 0) << terminal.output;
    EXPECT_NE(terminal.output.find("faultline-cli simulate: simulating 2,048 GPUs for 10 d"), std::string::npos) << terminal.output;
    EXPECT_NE(terminal.output.find("\r\033[K"), std::string::npos) << "the line is erased before the report";
    EXPECT_NE(terminal.output.find("2,048 GPUs, 10 d"), std::string::npos) << "the report still follows";

    const CommandResult piped = cli(args + dir.file("b.faultline"));
    EXPECT_EQ(piped.status, 0);
    EXPECT_EQ(piped.output.find("simulating"), std::string::npos) << "no progress into a pipe or log: " << piped.output;
    EXPECT_EQ(piped.output.find('\r'), std::string::npos);
}

TEST(CommandLine, ImportShowsItsProgressOnATerminalToo) {
    ScratchDir dir;
    const std::string input = std::string(FAULTLINE_SOURCE_DIR) + "/tests/data/importers/xid_journal.log";
    const CommandResult terminal = runOnTerminal(kCli + " import " + input + " -o " + dir.file("a.faultline"));
    ASSERT_EQ(terminal.status, 0) << terminal.output;
    EXPECT_NE(terminal.output.find("faultline-cli import: importing 1 input..."), std::string::npos) << terminal.output;
    EXPECT_NE(terminal.output.find("xid_journal.log"), std::string::npos) << "the report follows: " << terminal.output;
    const CommandResult quiet = runOnTerminal(kCli + " import --quiet " + input + " -o " + dir.file("b.faultline"));
    EXPECT_EQ(quiet.status, 0);
    EXPECT_EQ(quiet.output, "");
    EXPECT_TRUE(std::filesystem::exists(dir.file("b.faultline")));
}

TEST(CommandLine, CliManualPageListsEveryCommandAndOption) {
    const std::string page = manPage("faultline-cli.1");
    for (const cli::CommandSpec* spec : allSpecs()) {
        const std::size_t begin = page.find(".SS " + spec->name + " ");
        ASSERT_NE(begin, std::string::npos) << "faultline-cli(1) has no section for " << spec->name;
        const std::string section = page.substr(begin, page.find(".SS ", begin + 1) - begin);
        for (const cli::OptionSpec& o : spec->options)
            EXPECT_NE(section.find(o.name), std::string::npos) << "faultline-cli(1), " << spec->name << ": no " << o.name;
    }
    for (const std::string exit : {".B 0", ".B 1", ".B 2"}) EXPECT_NE(page.find(exit), std::string::npos) << "exit status " << exit;
    EXPECT_NE(page.find(std::string("\"Faultline ") + FAULTLINE_EXPECTED_VERSION + "\""), std::string::npos) << "the page names this version";
}

TEST(CommandLine, AppAnswersHelpVersionAndUsageErrorsWithoutADisplay) {
    const std::string noDisplay = "env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= ";
    const CommandResult help = test::runCommand(noDisplay + kApp + " --help 2>/dev/null", false);
    ASSERT_EQ(help.status, 0) << help.output;
    EXPECT_EQ(help.output.rfind("usage: faultline [RUN.faultline]\n", 0), 0u) << help.output;
    EXPECT_NE(help.output.find("2  usage error"), std::string::npos);
    // Every option of --help is in faultline(1).
    const std::string page = manPage("faultline.1");
    const std::regex option(R"(^  (?:-\w, )?(--[a-z-]+))");
    int options = 0;
    std::istringstream lines(help.output);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, option)) continue;
        ++options;
        EXPECT_NE(page.find(m[1].str()), std::string::npos) << "faultline(1) lacks " << m[1];
    }
    EXPECT_GE(options, 9) << help.output;
    EXPECT_NE(page.find(std::string("\"Faultline ") + FAULTLINE_EXPECTED_VERSION + "\""), std::string::npos) << "faultline(1) names this version";

    const CommandResult version = test::runCommand(noDisplay + kApp + " --version 2>/dev/null", false);
    EXPECT_EQ(version.status, 0);
    EXPECT_EQ(version.output.rfind(std::string("faultline ") + FAULTLINE_EXPECTED_VERSION + "\n", 0), 0u) << version.output;

    for (const std::string args : {"--frobnicate", "--at", "--size huge", "a.faultline b.faultline c.faultline", "--step 3",
                                   "--screenshot x.png --compare a.faultline", "--bench-replay --camera sideways"}) {
        const CommandResult r = test::runCommand(noDisplay + kApp + " " + args);
        EXPECT_EQ(r.status, 2) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("usage: faultline [RUN.faultline]"), std::string::npos) << args << "\n" << r.output;
    }
}

// What pressing Tab after a partial word completes to, from the installed completion script.
TEST(CommandLine, AppNeverWritesOverTheRunItReads) {
    // ../shared/repro/gui-screenshot-truncates-input.sh: the run was left at 0 bytes.
    test::ScratchDir dir;
    const std::string run = dir.file("run.faultline"), notes = dir.file("notes.png");
    ASSERT_EQ(cli("simulate --preset tiny -q -o " + run).status, 0);
    std::ofstream(notes) << "not a picture\n";
    const std::string before = readFile(run);
    const std::string noDisplay = "env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= ";
    for (const std::string& args : {"--screenshot " + run + " " + run, "--report " + run + " " + run, "--record " + run + " " + run,
                                   "--screenshot " + dir.file("x/../run.faultline") + " --view charts " + run}) {
        std::filesystem::create_directories(dir.path() / "x");
        const CommandResult r = test::runCommand(noDisplay + kApp + " " + args);
        EXPECT_EQ(r.status, 1) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("of this command: writing it would destroy what is read"), std::string::npos) << args << "\n" << r.output;
    }
    EXPECT_EQ(readFile(run), before);
    const CommandResult other = test::runCommand(noDisplay + kApp + " --screenshot " + notes + " " + run);
    EXPECT_EQ(other.status, 1);
    EXPECT_NE(other.output.find("is not a PNG picture"), std::string::npos) << other.output;
    EXPECT_EQ(readFile(notes), "not a picture\n");
}

std::string complete(const std::string& line) {
    const std::string script = std::string(FAULTLINE_SOURCE_DIR) + "/packaging/faultline-cli.bash-completion";
    const std::string bin = std::filesystem::path(kCli).parent_path().string();
    const std::string program = "source '" + script + "'; COMP_LINE='" + line + "'; read -ra COMP_WORDS <<< \"$COMP_LINE\"; " +
                                (line.back() == ' ' ? "COMP_WORDS+=(''); " : "") +
                                "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _faultline_cli; printf '%s\\n' \"${COMPREPLY[@]}\"";
    ScratchDir dir;
    std::ofstream(dir.file("complete.sh")) << program;
    return test::runCommand("PATH='" + bin + "':$PATH bash " + dir.file("complete.sh"), false).output;
}

TEST(CommandLine, BashCompletionOffersCommandsOptionsAndValues) {
    EXPECT_EQ(complete("faultline-cli sim"), "simulate\n");
    EXPECT_EQ(complete("faultline-cli simulate --checkp"), "--checkpoint-interval\n");
    EXPECT_EQ(complete("faultline-cli simulate --preset ll"), "llama3-405b\n");
    EXPECT_EQ(complete("faultline-cli simulate --preset meta"), "meta-24k-roce\nmeta-24k-ib\n");
    EXPECT_EQ(complete("faultline-cli simulate --preset fl"), "fleet-350k\n");
    EXPECT_NE(complete("faultline-cli import --format ki").find("kineto"), std::string::npos);
    const std::string summaryOptions = complete("faultline-cli summary --");
    EXPECT_NE(summaryOptions.find("--json"), std::string::npos) << summaryOptions;
    EXPECT_NE(summaryOptions.find("--help"), std::string::npos) << summaryOptions;
    const std::string commands = complete("faultline-cli ");
    for (const cli::CommandSpec* spec : allSpecs()) EXPECT_NE(commands.find(spec->name + "\n"), std::string::npos) << commands;
}

}  // namespace
}  // namespace faultline
