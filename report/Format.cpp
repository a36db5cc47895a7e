// Shared helpers of ompsim-report: loading, number formatting, tables.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "Report.h"

namespace ompsim {
namespace report {

sir::Document load_document(const std::string& path) {
    sir::Document doc;
    sir::LoadError err;
    if (!sir::load_file(path, doc, err)) throw Error(err.to_string());
    return doc;
}

std::string commas(uint64_t value) {
    std::string digits = std::to_string(value);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string signed_change(uint64_t old_value, uint64_t new_value) {
    if (new_value == old_value) return "0";
    if (new_value > old_value) return "+" + commas(new_value - old_value);
    return "-" + commas(old_value - new_value);
}

std::string factor_text(uint64_t old_value, uint64_t new_value) {
    if (old_value == 0) return new_value == 0 ? "-" : "inf";
    return fmt::format("{:.3f}", static_cast<double>(static_cast<long double>(new_value) / old_value));
}

std::string change_percent_text(uint64_t old_value, uint64_t new_value) {
    if (old_value == 0) return new_value == 0 ? "-" : "+inf%";
    long double diff = static_cast<long double>(new_value) - static_cast<long double>(old_value);
    double pct = static_cast<double>(diff * 100 / old_value);
    if (new_value == old_value) return "0.00%";
    return fmt::format("{:+.2f}%", pct);
}

std::string share_text(uint64_t part, uint64_t whole) {
    if (whole == 0) return "-";
    return fmt::format("{:.1f}%", static_cast<double>(static_cast<long double>(part) * 100 / whole));
}

std::string size_text(uint64_t bytes) {
    const uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
    if (bytes != 0 && bytes % gib == 0) return fmt::format("{} GiB", bytes / gib);
    if (bytes != 0 && bytes % mib == 0) return fmt::format("{} MiB", bytes / mib);
    if (bytes != 0 && bytes % kib == 0) return fmt::format("{} KiB", bytes / kib);
    return fmt::format("{} B", bytes);
}

namespace {

std::string shell_word(const std::string& word) {
    if (word.empty()) return "''";
    bool plain = std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string("/._-+=:,@%").find(c) != std::string::npos;
    });
    if (plain) return word;
    std::string out = "'";
    for (char c : word) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

}  // namespace

std::string command_text(const sir::Run& run) {
    std::string out = shell_word(run.exe);
    for (const auto& arg : run.args) out += " " + shell_word(arg);
    return out;
}

std::string csv_field(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        size_t b = item.find_first_not_of(" \t");
        if (b == std::string::npos) continue;
        size_t e = item.find_last_not_of(" \t");
        items.push_back(item.substr(b, e - b + 1));
    }
    return items;
}

std::string basename_of(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += sep;
        out += items[i];
    }
    return out;
}

int rank_event(const sir::Document& doc) {
    int i = doc.event_index("Cycles");
    return i >= 0 ? i : 0;
}

std::string FunctionRef::label() const { return file->path + ":" + region->name; }

std::vector<FunctionRef> functions_of(const sir::Document& doc) {
    std::vector<FunctionRef> out;
    for (const auto& file : doc.files)
        for (const auto& region : file.regions) out.push_back(FunctionRef{&file, &region});
    return out;
}

void Table::column(const std::string& header, Align align) {
    headers_.push_back(header);
    aligns_.push_back(align);
}

void Table::row(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

std::string Table::render(const std::string& indent) const {
    std::vector<size_t> width(headers_.size());
    for (size_t c = 0; c < headers_.size(); ++c) {
        width[c] = headers_[c].size();
        for (const auto& r : rows_) width[c] = std::max(width[c], r[c].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out = indent;
        for (size_t c = 0; c < cells.size(); ++c) {
            if (c) out += "  ";
            bool last = c + 1 == cells.size();
            if (aligns_[c] == kRight) out += fmt::format("{:>{}}", cells[c], width[c]);
            else if (last) out += cells[c];
            else out += fmt::format("{:<{}}", cells[c], width[c]);
        }
        while (out.size() > indent.size() && out.back() == ' ') out.pop_back();
        return out + "\n";
    };
    std::string out = line(headers_);
    std::vector<std::string> dashes;
    for (size_t c = 0; c < headers_.size(); ++c)
        dashes.push_back(std::string(headers_[c].empty() ? 0 : width[c], '-'));
    out += line(dashes);
    for (const auto& r : rows_) out += line(r);
    return out;
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (file) file << text;
    if (file) file.close();
    if (!file) throw Error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

std::string field_line(const std::string& label, const std::string& value) {
    std::string key = label + ":";
    return fmt::format("{:<{}}{}\n", key, std::max<size_t>(18, key.size() + 1), value);
}

std::string heading(const std::string& title) { return "-- " + title + "\n"; }

}  // namespace report
}  // namespace ompsim
