#pragma once
// A mark on disk that a window is editing a review (REVIEW.editing-PID-N beside the review),
// listing the incidents whose notes it has written. A window that closes removes its mark; one
// that was killed, or whose machine lost power, leaves it behind, so the next open of the run
// can tell the reviewer that what they typed before the app went down is there. The notes
// themselves are in the review already: they are saved as they are typed (incident_notes.h).
#include "time.h"

#include <set>
#include <string>

namespace faultline {

class ReviewEditingMark {
public:
    explicit ReviewEditingMark(std::string reviewPath);
    ~ReviewEditingMark();  // the window closed as it should: nothing to tell the next open
    ReviewEditingMark(const ReviewEditingMark&) = delete;
    ReviewEditingMark& operator=(const ReviewEditingMark&) = delete;

    // Called before a note is written: the mark lists it (written once per incident). Throws
    // Error naming the mark when it cannot be written.
    void noteEdited(Nanos incidentBegin);
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    std::set<Nanos> m_edited;
};

// The incidents edited by windows of processes that are gone (on this machine: a mark of
// another host is left to that host), their marks removed.
std::set<Nanos> takeEditsOfEndedWindows(const std::string& reviewPath);

}  // namespace faultline
