#include "importers/console/console_line.h"

#include "importers/text/log_record.h"
#include "importers/text/text_parse.h"

#include <algorithm>
#include <cstring>

namespace faultline {

namespace {

bool isLower(char c) { return c >= 'a' && c <= 'z'; }
bool isAlnum(char c) { return isDigit(c) || isLower(c) || (c >= 'A' && c <= 'Z'); }

// Length of a colour code starting at s[i] ('\x1b[..X' or '[..m'); 0 when none starts there.
std::size_t ansiAt(std::string_view s, std::size_t i) {
    std::size_t j = i;
    const bool esc = s[j] == '\x1b';
    if (esc) {
        ++j;
        if (j < s.size() && s[j] != '[') return j - i;  // a lone ESC or a two-byte sequence
        if (j >= s.size()) return 1;
    }
    if (s[j] != '[') return 0;
    ++j;
    const std::size_t params = j;
    while (j < s.size() && j - params < 12 && (isDigit(s[j]) || s[j] == ';')) ++j;
    if (j >= s.size()) return 0;
    if (esc) return (s[j] >= '@' && s[j] <= '~') ? j + 1 - i : 0;
    // Without the ESC only "[<digits>m" is a colour code: "[1]" or "[rank0]" are text.
    return j > params && s[j] == 'm' ? j + 1 - i : 0;
}

std::int32_t smallInt(std::string_view digits) {
    if (digits.empty() || digits.size() > 7) return -1;
    std::int32_t v = 0;
    for (char c : digits) {
        if (!isDigit(c)) return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

// The progress bars tqdm draws end "...it/s]" or "...s/it]" (with postfixes: "it/s, loss=2.3]");
// the position after the bar's closing ']' when more text follows it on the line.
std::size_t afterJoinedBar(std::string_view s) {
    if (s.find('|') == std::string_view::npos) return 0;  // no bar; most lines
    for (std::string_view rate : {std::string_view("it/s"), std::string_view("s/it")}) {
        const std::size_t at = s.find(rate);
        if (at == std::string_view::npos || s.find('|') > at) continue;
        const std::size_t close = s.find(']', at);
        if (close != std::string_view::npos && close + 1 < s.size()) return close + 1;
    }
    return 0;
}

}  // namespace

std::string_view stripAnsi(std::string_view s, std::string& scratch) {
    // Most lines have no colour: look for a candidate before copying anything. A code starts
    // at an ESC or a '[': memchr finds each kind (find_first_of would call memchr once per byte
    // of the line, and a loop over every byte is a fifth of reading a big log).
    const auto nextOf = [s](char c, std::size_t from) {
        const void* p = from < s.size() ? std::memchr(s.data() + from, c, s.size() - from) : nullptr;
        return p ? static_cast<std::size_t>(static_cast<const char*>(p) - s.data()) : std::string_view::npos;
    };
    std::size_t first = std::string_view::npos;
    for (std::size_t esc = nextOf('\x1b', 0), bracket = nextOf('[', 0); esc != bracket;) {  // equal only when both are npos
        const std::size_t i = std::min(esc, bracket);
        if (ansiAt(s, i) > 0) {
            first = i;
            break;
        }
        if (i == esc) esc = nextOf('\x1b', i + 1);
        else bracket = nextOf('[', i + 1);
    }
    if (first == std::string_view::npos) return s;
    scratch.assign(s.data(), first);
    for (std::size_t i = first; i < s.size();) {
        if (s[i] == '\x1b' || s[i] == '[') {
            if (const std::size_t n = ansiAt(s, i)) {
                i += n;
                continue;
            }
        }
        scratch += s[i++];
    }
    return scratch;
}

void resolveYear(ConsoleLine& line, YearResolver& years) {
    // A peel resolves its yearless time before any full date it notes: a full date before it
    // would have been the line's time, and no yearless time is resolved once a line has one.
    if (line.yearless) {
        const ConsoleLine::Yearless& y = *line.yearless;
        // --year names it, or a full date the log printed gives it: nothing assumed.
        line.yearAssumed = years.forcedYear() <= 0 && !years.yearFromLog();
        line.time = years.resolve(y.month, y.day, y.secondOfDay, y.fracNs);
        line.yearOmitted = true;
        line.yearless.reset();
    }
    if (line.dated) years.noteDated(*line.dated);
    line.dated.reset();
}

void ConsoleLinePeeler::split(std::string_view raw, std::vector<ConsoleLine>& out) { splitPlain(stripAnsi(raw, m_plain), out); }

void ConsoleLinePeeler::splitPlain(std::string_view plain, std::vector<ConsoleLine>& out, std::deque<std::string>* keep) {
    out.clear();
    // A collector's record: its message is the line (or lines) the program printed.
    const std::size_t first = plain.find_first_not_of(' ');
    if (first != std::string_view::npos && plain[first] == '{')
        if (std::optional<LogRecord> record = parseLogRecord(plain)) {
            std::deque<std::string>& store = keep ? *keep : m_record;
            if (!keep) m_record.clear();
            std::string scratch;
            const std::string_view message = store.emplace_back(stripAnsi(record->message, scratch));
            m_outer = Outer{record->time, store.emplace_back(record->host), false};
            for (std::string_view rest = message;;) {
                const std::size_t nl = rest.find('\n');
                m_outer.partial = nl == std::string_view::npos && record->partial;
                splitSegments(rest.substr(0, nl), out);
                if (nl == std::string_view::npos) break;
                rest.remove_prefix(nl + 1);
            }
            m_outer = {};
            return;
        }
    splitSegments(plain, out);
}

void ConsoleLinePeeler::splitSegments(std::string_view plain, std::vector<ConsoleLine>& out) {
    const std::size_t before = out.size();
    std::string_view rest = plain;
    while (true) {
        const std::size_t cr = rest.find('\r');
        std::string_view segment = rest.substr(0, cr);
        // A bar tqdm left on the line, then the next print with no newline between.
        while (true) {
            const std::size_t cut = afterJoinedBar(segment);
            if (cut == 0) break;
            out.push_back(peel(segment.substr(0, cut)));
            segment.remove_prefix(cut);
        }
        if (!segment.empty() || (cr == std::string_view::npos && out.size() == before)) out.push_back(peel(segment));
        if (cr == std::string_view::npos) break;
        rest.remove_prefix(cr + 1);
    }
}

namespace {

// Each peels one kind of wrapper off the front of `s` into `out`; false: `s` does not start with it.

// torchrun "[default3]:" / "[rank3]:", mpirun "[1,3]<stdout>:", kubectl "[pod/x/y] ",
// a collector's "[2024-03-05 10:00:00] ", glog's "[E0610 03:10:05.1 42 f.cpp:1] ".
bool peelBracketed(std::string_view& s, ConsoleLine& out) {
    const char c = s.front();
    const auto hasTime = [&out] { return out.time || out.yearless; };
    if (c == '[') {
        std::size_t i = 1;
        while (i < s.size() && i < 24 && isLower(s[i])) ++i;
        const std::size_t digits = i;
        while (i < s.size() && isDigit(s[i])) ++i;
        if (i > digits && digits > 1 && s.substr(i, 2) == "]:") {
            const std::int32_t n = smallInt(s.substr(digits, i - digits));
            if (s.substr(1, digits - 1) == "rank") out.rank = n;
            else out.localRank = n;
            s.remove_prefix(i + 2);
            return true;
        }
        // A launcher's "[host:rank]:" ("[gpu187:1]:"): the host and the rank it names.
        if (const std::size_t colon = s.find(':', 1); colon != std::string_view::npos && colon > 1 && colon < 64) {
            std::size_t j = colon + 1;
            while (j < s.size() && isDigit(s[j])) ++j;
            const std::string_view host = s.substr(1, colon - 1);
            const bool hostLike = isAlnum(host.front()) && host.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-_") == std::string_view::npos;
            if (hostLike && j > colon + 1 && j - colon <= 8 && s.substr(j, 2) == "]:") {
                out.host = host;
                out.rank = smallInt(s.substr(colon + 1, j - colon - 1));
                s.remove_prefix(j + 2);
                return true;
            }
        }
        if (s.size() > 3 && s[1] == '1' && s[2] == ',') {
            const std::size_t close = s.find("]<std", 3);
            if (close != std::string_view::npos && close < 12) {
                const std::size_t colon = s.find(">:", close);
                if (colon != std::string_view::npos && colon < close + 10) {
                    out.rank = smallInt(s.substr(3, close - 3));
                    s.remove_prefix(colon + 2);
                    return true;
                }
            }
        }
        if (startsWith(s, "[pod/")) {
            const std::size_t close = s.find("] ");
            if (close != std::string_view::npos) {
                std::string_view pod = s.substr(5, close - 5);
                out.host = pod.substr(0, pod.find('/'));
                s.remove_prefix(close + 2);
                return true;
            }
        }
        if (s.size() > 20 && isDigit(s[1])) {
            std::size_t used = 0;
            if (auto t = parseIsoTime(s.substr(1), &used); t && 1 + used < s.size() && s[1 + used] == ']') {
                if (!hasTime()) out.time = *t;
                out.dated = *t;
                s.remove_prefix(2 + used);
                if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
                return true;
            }
        }
    }
    return false;
}

// glog / c10 logger: "E0610 03:10:05.123456 4242 file.cpp:616] " (or "E610", bracketed).
bool peelGlog(std::string_view& s, ConsoleLine& out) {
    const char c = s.front();
    const auto hasTime = [&out] { return out.time || out.yearless; };
    {
        const std::size_t g = c == '[' ? 1 : 0;
        if (s.size() > g + 14 && (s[g] == 'E' || s[g] == 'W' || s[g] == 'I' || s[g] == 'F') && isDigit(s[g + 1])) {
            std::size_t n = 0;
            while (g + 1 + n < s.size() && isDigit(s[g + 1 + n])) ++n;
            const std::size_t clockAt = g + 2 + n;
            if ((n == 3 || n == 4) && s[g + 1 + n] == ' ' && clockAt + 8 <= s.size()) {
                const std::int32_t mmdd = smallInt(s.substr(g + 1, n));
                const auto clock = parseClock(s.substr(clockAt, 8));
                const unsigned month = static_cast<unsigned>(mmdd / 100), day = static_cast<unsigned>(mmdd % 100);
                const std::size_t close = s.find("] ", clockAt);
                if (clock && month >= 1 && month <= 12 && day >= 1 && day <= 31 && close != std::string_view::npos && close < clockAt + 120) {
                    std::int64_t frac = 0, scale = 100'000'000;
                    for (std::size_t j = clockAt + 9; clockAt + 8 < s.size() && s[clockAt + 8] == '.' && j < s.size() && isDigit(s[j]); ++j, scale /= 10)
                        frac += (s[j] - '0') * scale;
                    if (!hasTime()) out.yearless = ConsoleLine::Yearless{month, day, *clock, frac};
                    s.remove_prefix(close + 2);
                    return true;
                }
            }
        }
    }
    return false;
}

// A collector's or kubectl's timestamp, then perhaps journald's "host prog[pid]: ".
bool peelIsoTime(std::string_view& s, ConsoleLine& out) {
    const char c = s.front();
    const auto hasTime = [&out] { return out.time || out.yearless; };
    if (isDigit(c) && s.size() > 19 && s[4] == '-') {
        std::size_t used = 0;
        if (auto t = parseIsoTime(s, &used); t && (used == s.size() || s[used] == ' ' || s[used] == '\t')) {
            if (!hasTime()) out.time = *t;
            out.dated = *t;
            s.remove_prefix(std::min(used + 1, s.size()));
            // Kubernetes CRI: "stdout F msg"; a "P" record's line goes on in the next record.
            if ((startsWith(s, "stdout ") || startsWith(s, "stderr ")) && s.size() >= 8 && (s[7] == 'F' || s[7] == 'P') &&
                (s.size() == 8 || s[8] == ' ')) {
                out.partial = s[7] == 'P';
                s.remove_prefix(std::min<std::size_t>(9, s.size()));
                return true;
            }
            // "-o short-iso": "node017 python[1234]: msg"
            const std::size_t sp = s.find(' ');
            if (sp != std::string_view::npos && sp < 64) {
                const std::size_t tag = s.find(": ", sp);
                if (tag != std::string_view::npos && tag < sp + 40 && (s[tag - 1] == ']' || s.substr(sp + 1, tag - sp - 1) == "kernel") &&
                    s.substr(sp + 1, tag - sp - 1).find(' ') == std::string_view::npos) {
                    out.host = s.substr(0, sp);
                    s.remove_prefix(tag + 2);
                }
            }
            return true;
        }
    }
    return false;
}

// mpirun --timestamp-output, date(1): "Sun Oct  1 17:01:10 2017" glued to what follows.
bool peelCtime(std::string_view& s, ConsoleLine& out) {
    const char c = s.front();
    const auto hasTime = [&out] { return out.time || out.yearless; };
    if (s.size() > 24 && c >= 'F' && c <= 'W' && s[3] == ' ' && s[7] == ' ' && s[10] == ' ' && s[13] == ':' && s[19] == ' ') {
        const auto month = monthFromAbbrev(s.substr(4, 3));
        const std::int32_t day = smallInt(trim(s.substr(8, 2)));
        const auto clock = parseClock(s.substr(11, 8));
        const std::int32_t year = smallInt(s.substr(20, 4));
        if (month && clock && day >= 1 && day <= 31 && year >= 1970) {
            const EpochNs t = epochFromCivil(year, *month, static_cast<unsigned>(day), *clock);
            if (!hasTime()) out.time = t;
            out.dated = t;
            s.remove_prefix(24);
            if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
            return true;
        }
    }
    return false;
}

// journald / syslog: "Mar  5 10:00:00[.123] node017 python[1234]: msg".
bool peelSyslog(std::string_view& s, ConsoleLine& out) {
    const char c = s.front();
    const auto hasTime = [&out] { return out.time || out.yearless; };
    if (s.size() > 20 && c >= 'A' && c <= 'S' && s[3] == ' ') {
        if (const auto month = monthFromAbbrev(s.substr(0, 3))) {
            std::size_t i = 4;
            while (i < s.size() && s[i] == ' ') ++i;
            const std::size_t dayAt = i;
            while (i < s.size() && isDigit(s[i])) ++i;
            const std::int32_t day = smallInt(s.substr(dayAt, i - dayAt));
            const auto clock = i + 9 <= s.size() && s[i] == ' ' ? parseClock(s.substr(i + 1, 8)) : std::nullopt;
            if (clock && day >= 1 && day <= 31) {
                std::size_t j = i + 9;
                std::int64_t frac = 0, scale = 100'000'000;
                if (j < s.size() && s[j] == '.')
                    for (++j; j < s.size() && isDigit(s[j]); ++j, scale /= 10) frac += (s[j] - '0') * scale;
                std::string_view rest = s.substr(std::min(j + 1, s.size()));
                const std::size_t sp = rest.find(' ');
                const std::size_t tag = sp == std::string_view::npos ? sp : rest.find(": ", sp);
                if (tag != std::string_view::npos && tag < sp + 48 && rest.substr(sp + 1, tag - sp - 1).find(' ') == std::string_view::npos) {
                    if (!hasTime()) out.yearless = ConsoleLine::Yearless{*month, static_cast<unsigned>(day), *clock, frac};
                    out.host = rest.substr(0, sp);
                    s = rest.substr(tag + 2);
                    return true;
                }
            }
        }
    }
    return false;
}

// Ray: "(RayWorker pid=123, ip=10.0.0.2) ", "(pid=123) ".
bool peelRay(std::string_view& s, ConsoleLine& out) {
    const char c = s.front();
    if (c == '(') {
        const std::size_t close = s.find(") ");
        const std::size_t pid = s.find("pid=");
        if (close != std::string_view::npos && close < 200 && pid != std::string_view::npos && pid < close) {
            if (const std::size_t ip = s.find("ip=", pid); ip != std::string_view::npos && ip < close)
                out.host = s.substr(ip + 3, s.find_first_of(",)", ip) - ip - 3);
            s.remove_prefix(close + 2);
            return true;
        }
    }
    return false;
}

// A host name inside a runner's label: of its dotted parts ("dinov2-giant-nodes.cn-d003.nolog"),
// the first after the leading one (the job's or benchmark's name) that has letters and ends in
// a number as host names do, else the leading one if it does; empty when none does.
std::string_view hostInLabel(std::string_view label) {
    const auto hostLike = [](std::string_view p) {
        return p.size() > 1 && isDigit(p.back()) && isAlnum(p.front()) && p.find_first_not_of("0123456789-") != std::string_view::npos &&
               p.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") == std::string_view::npos;
    };
    const std::size_t dot = label.find('.');
    const std::string_view lead = label.substr(0, dot);
    for (std::string_view rest = dot == std::string_view::npos ? std::string_view() : label.substr(dot + 1); !rest.empty();) {
        const std::size_t next = rest.find('.');
        if (hostLike(rest.substr(0, next))) return rest.substr(0, next);
        if (next == std::string_view::npos) break;
        rest.remove_prefix(next + 1);
    }
    return hostLike(lead) ? lead : std::string_view();
}

// A runner's stream label: "NAME [stderr] ", "NAME [stdout]: ", a bare "[stdout] ".
bool peelStream(std::string_view& s, ConsoleLine& out) {
    const auto streamAt = [&s](std::size_t i) { return s.substr(i, 8) == "[stdout]" || s.substr(i, 8) == "[stderr]"; };
    std::size_t at = 0;
    if (!streamAt(0)) {
        const std::size_t sp = s.find(' ');
        if (sp == std::string_view::npos || sp == 0 || sp > 160 || !streamAt(sp + 1)) return false;
        at = sp + 1;
        if (out.host.empty()) out.host = hostInLabel(s.substr(0, sp));
    }
    s.remove_prefix(at + 8);
    if (!s.empty() && s.front() == ':') s.remove_prefix(1);
    if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    return true;
}

// set -x: "+ cmd", "++ cmd".
// True: the rest is a command line, not a wrapped line.
bool peelShellTrace(std::string_view& s, ConsoleLine& out) {
    const char c = s.front();
    if (c == '+') {
        std::size_t i = 0;
        while (i < s.size() && s[i] == '+') ++i;
        if (i < 6 && i < s.size() && s[i] == ' ') {
            out.shellTrace = true;
            s.remove_prefix(i + 1);
            return true;  // the rest is a command line, not a wrapped line
        }
    }
    return false;
}

// What a paste or a viewer puts before a launcher's bracketed wrapper and says nothing the
// wrapper does not: a line number "[80746] [rank0]:[E321 ...]", or a bare time of day
// "18:11:06.680 [rank4]:[E205 18:11:06.375 ...]" (the glog stamp after it has the date).
bool peelBeforeBracket(std::string_view& s) {
    std::size_t i = 0;
    if (s.front() == '[') {
        for (i = 1; i < s.size() && i < 12 && isDigit(s[i]);) ++i;
        if (i < 3 || s.substr(i, 3) != "] [") return false;
        s.remove_prefix(i + 2);
        return true;
    }
    // HH:MM:SS, then perhaps .fff, then " [".
    if (s.size() < 10 || !isDigit(s[0]) || !isDigit(s[1]) || s[2] != ':' || !isDigit(s[3]) || !isDigit(s[4]) || s[5] != ':' || !isDigit(s[6]) || !isDigit(s[7]))
        return false;
    i = 8;
    if (s[i] == '.' || s[i] == ',')
        for (++i; i < s.size() && isDigit(s[i]);) ++i;
    if (s.substr(i, 2) != " [") return false;
    s.remove_prefix(i + 1);
    return true;
}

// srun -l "  12: ", a viewer's "  123\t" or "123 | ", pdsh "node017: " / "10.1.2.3: ".
bool peelLabel(std::string_view& s, ConsoleLine& out) {
    {
        std::size_t i = 0;
        while (i < s.size() && i < 8 && s[i] == ' ') ++i;
        const std::size_t start = i;
        bool digitsOnly = true, anyDigit = false;
        std::size_t dots = 0;
        while (i < s.size() && i - start < 64 && (isAlnum(s[i]) || s[i] == '.' || s[i] == '-' || s[i] == '_')) {
            if (isDigit(s[i])) anyDigit = true;
            else digitsOnly = false;
            if (s[i] == '.') ++dots;
            ++i;
        }
        const std::string_view token = s.substr(start, i - start);
        if (!token.empty() && anyDigit) {
            if (digitsOnly && i < s.size() && s[i] == '\t') {  // a viewer's line number
                s.remove_prefix(i + 1);
                return true;
            }
            if (digitsOnly && s.substr(i, 3) == " | ") {
                s.remove_prefix(i + 3);
                return true;
            }
            if (s.substr(i, 2) == ": " || (i + 1 == s.size() && s[i] == ':')) {
                if (digitsOnly) {
                    out.rank = smallInt(token);  // srun's task number is the global rank
                    s.remove_prefix(std::min(i + 2, s.size()));
                    return true;
                }
                // A host name: lower case (or an IPv4 address), starting with a letter or digit.
                bool hostLike = start == 0 && isAlnum(token.front());
                for (char h : token) hostLike = hostLike && !(h >= 'A' && h <= 'Z');
                const bool numeric = token.find_first_not_of("0123456789.") == std::string_view::npos;
                if (hostLike && (!numeric || dots == 3)) {
                    out.host = token;
                    s.remove_prefix(std::min(i + 2, s.size()));
                    return true;
                }
            }
        }
    }
    return false;
}

}  // namespace

ConsoleLine ConsoleLinePeeler::peel(std::string_view s) {
    ConsoleLine out;
    // A collector's record around the line is its outermost wrapper.
    out.time = m_outer.time;
    out.dated = m_outer.time;
    out.host = m_outer.host;
    // Wrappers nest in any order (pdsh around srun around torchrun): peel until none is left.
    for (int round = 0; round < 12 && !s.empty(); ++round) {
        if (peelBracketed(s, out) || peelGlog(s, out) || peelIsoTime(s, out) || peelCtime(s, out) || peelSyslog(s, out) || peelRay(s, out) ||
            peelStream(s, out))
            continue;
        // "[gpu187:3]: [E0603 ...] ", "12: [2024-06-03 07:12:41] ": the space after a wrapper
        // before a time's wrapper (a message's own leading spaces stay: a traceback's indent).
        if (round > 0 && s.size() > 1 && s.front() == ' ' && s[1] != ' ') {
            std::string_view rest = s.substr(1);
            if (peelBracketed(rest, out) || peelGlog(rest, out) || peelIsoTime(rest, out)) {
                s = rest;
                continue;
            }
        }
        if (peelShellTrace(s, out)) break;
        if (peelLabel(s, out)) continue;
        if (round == 0 && peelBeforeBracket(s)) continue;
        break;
    }
    // Lines that began with a time of their own ("2021-05-25 06:38:26,284 - INFO - ...") were
    // peeled above; a time later in the line ("[INFO|trainer.py:1143] 2021-05-25 06:38:26,284 >>",
    // Megatron's "datetime: 2021-05-23 08:23:57") is the line's time too.
    out.text = s;
    out.partial = out.partial || m_outer.partial;
    if (m_years) resolveYear(out, *m_years);
    return out;
}

}  // namespace faultline
