#pragma once

#include "Args.h"
#include "LoadedDump.h"
#include "Output.h"

#include <QString>

#include <string>

namespace bufferscope {

/// The headless commands, one file each (app/cli/<Name>Command.cpp); each returns the process
/// exit status (CommandLine.h, cli/Output.h). `threads` as util/Parallel.h threadsFor takes them.
int runReport(const Args &args, int threads);
int runDiff(const Args &args, int threads);
int runList(const Args &args, int threads);
int runSummary(const Args &args, int threads);
int runOom(const Args &args, int threads);
int runFit(const Args &args, int threads);
int runMemory(const Args &args, int threads);

/// Loads FILE for a command; prints the error (FILE:LINE: ...) and returns false on failure.
bool loadForCommand(const QString &file, LoadedDump &out, int threads);
/// Reads a whole log (a regular file only: a FIFO would hang the command); prints why not.
bool readLog(const QString &path, std::string &text);

} // namespace bufferscope
