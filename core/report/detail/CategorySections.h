#pragma once

#include "report/Report.h"

#include <functional>
#include <string>

namespace bufferscope {
class JsonWriter;
}

namespace bufferscope::report_detail {

/// The report's "Memory by category" and "Levers" sections (CategorySections.cpp).
void categoriesText(const Dump &dump, const ReportFacts &facts,
                    const std::function<void(const std::string &)> &line);
void categoriesJson(JsonWriter &w, const Dump &dump, const ReportFacts &facts);

} // namespace bufferscope::report_detail
